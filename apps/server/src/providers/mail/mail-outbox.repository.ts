import { mailOutbox, mailOutboxAttachments, type SystemTx, type Transactions } from '@adpilot/db';
import { lt } from 'drizzle-orm';

/** The outbox table: rows arrive sealed; `MailOutbox` does the sealing. Mail is no tenant's row: the system path. */
export class MailOutboxRepository {
  constructor(private readonly transactions: Transactions) {}

  async insert(row: {
    toAddress: string;
    subject: string;
    sealedBody: string;
    expiresAt: Date;
    attachments: { fileName: string; contentType: string; size: number; sealedContent: string }[];
  }): Promise<void> {
    const { attachments, ...mail } = row;
    await this.transactions.system('mail outbox', async (tx) => {
      const [stored] = await tx.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      if (!stored) throw new Error('insert returned no row');
      if (attachments.length === 0) return;
      await tx.db
        .insert(mailOutboxAttachments)
        .values(attachments.map((file, position) => ({ ...file, mailId: stored.id, position })));
    });
  }

  /** Mail whose link expired before `now`, in the caller's unit of work (the maintenance run); attachments cascade. */
  async purgeExpired(tx: SystemTx, now: Date): Promise<number> {
    const rows = await tx.db.delete(mailOutbox).where(lt(mailOutbox.expiresAt, now)).returning({ id: mailOutbox.id });
    return rows.length;
  }
}
