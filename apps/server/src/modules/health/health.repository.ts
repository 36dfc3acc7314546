import type { Database } from '@adpilot/db';
import { sql } from 'drizzle-orm';

/** Round-trips to the database; false when it cannot be reached. */
export function pingDatabase(db: Database): Promise<boolean> {
  return db
    .execute(sql`select 1`)
    .then(() => true)
    .catch(() => false);
}
