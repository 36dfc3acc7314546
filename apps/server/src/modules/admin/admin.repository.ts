import { mailOutbox, type SystemTx } from '@adpilot/db';
import { desc } from 'drizzle-orm';

export class AdminRepository {
  /** Mail of every user: the operator's view, on the system path. */
  recentOutboxMail(tx: SystemTx, limit: number) {
    return tx.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
  }
}
