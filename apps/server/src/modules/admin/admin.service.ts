import type { OutboxMail } from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import type { SecretBox } from '../../lib/crypto.ts';
import { presentOutboxMail } from './admin.presenter.ts';
import type { AdminRepository } from './admin.repository.ts';

/** The instance administrator's operator views; the routes let only the admin in. */
export class AdminService {
  constructor(
    private readonly deps: { transactions: Transactions; repository: AdminRepository; secretBox: SecretBox },
  ) {}

  async recentOutboxMail(limit: number): Promise<OutboxMail[]> {
    const { rows, attachments } = await this.deps.transactions.system('admin: outbox', async (tx) => {
      const rows = await this.deps.repository.recentOutboxMail(tx, limit);
      const attachments = await this.deps.repository.outboxAttachments(
        tx,
        rows.map((row) => row.id),
      );
      return { rows, attachments };
    });
    const open = (sealed: string) => this.deps.secretBox.decrypt(sealed);
    return rows.map((row) =>
      presentOutboxMail(
        row,
        attachments.filter((file) => file.mailId === row.id),
        open,
      ),
    );
  }
}
