import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { MIGRATIONS_FOLDER } from '../migrate.ts';

interface Journal {
  entries: { when: number; tag: string }[];
}

const journal = () => JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as Journal;

/**
 * Refuses a backup whose schema this version of AdPilot does not know: its migrations must be this version's first
 * ones (the same or fewer; the later ones run after the restore, and move its rows along as they would any rows).
 */
export function assertKnownMigrations(applied: number[]): void {
  const known = journal().entries.map((entry) => entry.when);
  const unknown = applied.findIndex((when, index) => known[index] !== when);
  if (unknown !== -1) {
    throw new Error(
      `The backup was made by a version of AdPilot with migrations this one does not have (its migration ${unknown + 1} ` +
        'differs): restore it with that version or a later one.',
    );
  }
}

/**
 * Applies the first `count` migrations to `client`'s empty database, inside the caller's transaction (Drizzle's
 * migrator would commit it): the schema a backup's rows were read from, recorded as Drizzle records it, so the server's
 * next start applies only the later ones.
 */
export async function migrateToCount(client: pg.Client, count: number): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).slice(0, count);
  await client.query('create schema if not exists drizzle');
  await client.query(
    'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
  );
  for (const migration of migrations) {
    for (const statement of migration.sql) await client.query(statement);
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
      migration.hash,
      migration.folderMillis,
    ]);
  }
}
