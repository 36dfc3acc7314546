export * from './client.ts';
export * from './listen.ts';
export * from './migrate.ts';
export * from './transactions.ts';
export * from './schema/index.ts';
export * from './upsert.ts';
export * from './data-dir-lock.ts';
export * from './private-files.ts';
