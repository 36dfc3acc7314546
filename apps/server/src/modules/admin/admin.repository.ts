import { mailOutbox, mailOutboxAttachments, type SystemTx } from '@adpilot/db';
import { asc, desc, inArray } from 'drizzle-orm';

/** An attachment as the outbox list describes it: its bytes stay sealed in the table. */
export interface OutboxAttachmentInfo {
  mailId: string;
  fileName: string;
  contentType: string;
  size: number;
}

export class AdminRepository {
  /** Mail of every user: the operator's view, on the system path. */
  recentOutboxMail(tx: SystemTx, limit: number) {
    return tx.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
  }

  /** What those mails carried attached, in the order they were attached. */
  outboxAttachments(tx: SystemTx, mailIds: string[]): Promise<OutboxAttachmentInfo[]> {
    if (mailIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select({
        mailId: mailOutboxAttachments.mailId,
        fileName: mailOutboxAttachments.fileName,
        contentType: mailOutboxAttachments.contentType,
        size: mailOutboxAttachments.size,
      })
      .from(mailOutboxAttachments)
      .where(inArray(mailOutboxAttachments.mailId, mailIds))
      .orderBy(asc(mailOutboxAttachments.mailId), asc(mailOutboxAttachments.position));
  }
}
