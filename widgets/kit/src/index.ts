export * from './api.ts';
export * from './errors.ts';
export * from './format.ts';
export * from './session.ts';
export * from './ui.tsx';
export * from './Pagination.tsx';
export * from './icons.tsx';
export * from './mount.tsx';
