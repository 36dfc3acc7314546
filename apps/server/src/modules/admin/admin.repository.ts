import { mailOutbox, type Database } from '@adpilot/db';
import { desc } from 'drizzle-orm';

export class AdminRepository {
  constructor(private readonly db: Database) {}

  recentOutboxMail(limit: number) {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
  }
}
