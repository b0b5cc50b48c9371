export * from './test-app.ts';
export * from './builders.ts';
export * from './smtp.ts';
export * from './billing.ts';
export * from './fakes.ts';
export * from './http.ts';
export * from './generations.ts';
export * from './admin.ts';
