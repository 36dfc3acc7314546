import { selectRows, type SystemTx } from '@adpilot/db';
import { sql } from 'drizzle-orm';

/**
 * The Test page's own query. The probes on users, sessions and plans go through their owners' services (auth,
 * subscription; ADR 0066).
 */
export class DiagnosticsRepository {
  /** The database's own version string (`PostgreSQL 18.0 …`). */
  async serverVersion(tx: SystemTx): Promise<string> {
    const [row] = await selectRows<{ version: string }>(
      tx.db,
      sql`select current_setting('server_version') as version`,
    );
    return row?.version ?? 'unknown';
  }
}
