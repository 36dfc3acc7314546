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
    const rows = await this.deps.transactions.system('admin: outbox', (tx) =>
      this.deps.repository.recentOutboxMail(tx, limit),
    );
    return rows.map((row) => presentOutboxMail(row, (sealed) => this.deps.secretBox.decrypt(sealed)));
  }
}
