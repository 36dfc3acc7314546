import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The `SET` of an upsert that takes the named columns from the row that was proposed (`excluded.…`),
 * so an `onConflictDoUpdate` lists column names once instead of repeating each as SQL.
 */
export function takeExcluded<T extends PgTable, K extends keyof T['_']['columns'] & string>(
  table: T,
  keys: readonly K[],
): Record<K, SQL> {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  return Object.fromEntries(keys.map((key) => [key, sql.raw(`excluded."${columns[key]?.name ?? key}"`)])) as Record<
    K,
    SQL
  >;
}
