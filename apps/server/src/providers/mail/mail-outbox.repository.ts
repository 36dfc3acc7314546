import { mailOutbox, type Transactions } from '@adpilot/db';

/** The outbox table: rows arrive sealed; `MailOutbox` does the sealing. Mail is no tenant's row: the system path. */
export class MailOutboxRepository {
  constructor(private readonly transactions: Transactions) {}

  async insert(row: { toAddress: string; subject: string; sealedBody: string; expiresAt: Date }): Promise<void> {
    await this.transactions.system('mail outbox', (tx) => tx.db.insert(mailOutbox).values(row));
  }
}
