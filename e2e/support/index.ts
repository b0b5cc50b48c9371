export * from './browser.ts';
export * from './pages.ts';
export * from './harness.ts';
export * from './axe.ts';
export * from './build.ts';
export * from './checkout.ts';
export * from './billing.ts';
