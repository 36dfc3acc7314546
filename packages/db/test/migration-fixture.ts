import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';

interface Journal {
  entries: { tag: string }[];
}

const journal = (): string[] =>
  (JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as Journal).entries.map(
    (entry) => entry.tag,
  );

/** Runs one migration file's statements, as the tables' owner (the login user), in one transaction. */
export async function applyMigration(db: PGlite, tag: string): Promise<void> {
  const text = readFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8');
  await db.transaction(async (tx) => {
    for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await tx.exec(statement);
  });
}

/**
 * A fresh embedded database migrated up to and including `lastTag`, as a database made before the migrations
 * after it would be: migration tests seed it the old way, apply the next migration and read the rows back.
 */
export async function databaseMigratedTo(lastTag: string): Promise<PGlite> {
  const tags = journal();
  const last = tags.indexOf(lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const db = new PGlite('memory://');
  for (const tag of tags.slice(0, last + 1)) await applyMigration(db, tag);
  return db;
}
