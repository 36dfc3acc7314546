import { mailOutbox, type SystemTx, type Transactions } from '@adpilot/db';
import { lt } from 'drizzle-orm';

/** The outbox table: rows arrive sealed; `MailOutbox` does the sealing. Mail is no tenant's row: the system path. */
export class MailOutboxRepository {
  constructor(private readonly transactions: Transactions) {}

  async insert(row: { toAddress: string; subject: string; sealedBody: string; expiresAt: Date }): Promise<void> {
    await this.transactions.system('mail outbox', (tx) => tx.db.insert(mailOutbox).values(row));
  }

  /** Mail whose link expired before `now`, in the caller's unit of work (the maintenance run). */
  async purgeExpired(tx: SystemTx, now: Date): Promise<number> {
    const rows = await tx.db.delete(mailOutbox).where(lt(mailOutbox.expiresAt, now)).returning({ id: mailOutbox.id });
    return rows.length;
  }
}
