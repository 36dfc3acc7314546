export * from './envelope.ts';
export * from './error-codes.ts';
export * from './constants.ts';
export * from './auth.ts';
export * from './ad-accounts.ts';
export * from './health.ts';
export * from './admin.ts';
export * from './metrics.ts';
