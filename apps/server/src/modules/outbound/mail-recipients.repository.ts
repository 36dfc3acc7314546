import { mailRecipients, type MailRecipientRow, type SystemTx } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';

/** The outbound module's table: what outside addresses said about each workspace's mail (ADR 0092). */
export class MailRecipientsRepository {
  async find(tx: SystemTx, workspaceId: string, email: string): Promise<MailRecipientRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(mailRecipients)
      .where(and(eq(mailRecipients.workspaceId, workspaceId), eq(mailRecipients.email, email)));
    return row;
  }

  /** Claims the first mail to the address: true for the one caller that inserted the pending row. */
  async claimFirst(tx: SystemTx, workspaceId: string, email: string, now: Date): Promise<boolean> {
    const rows = await tx.db
      .insert(mailRecipients)
      .values({ workspaceId, email, state: 'pending', requestedAt: now })
      .onConflictDoNothing()
      .returning({ email: mailRecipients.email });
    return rows.length === 1;
  }

  /** Gives a claim back (its mail could not be sent): only while it is still pending. */
  async releaseFirst(tx: SystemTx, workspaceId: string, email: string): Promise<void> {
    await tx.db
      .delete(mailRecipients)
      .where(
        and(
          eq(mailRecipients.workspaceId, workspaceId),
          eq(mailRecipients.email, email),
          eq(mailRecipients.state, 'pending'),
        ),
      );
  }

  async answer(
    tx: SystemTx,
    workspaceId: string,
    email: string,
    state: 'confirmed' | 'unsubscribed',
    now: Date,
  ): Promise<void> {
    await tx.db
      .insert(mailRecipients)
      .values({ workspaceId, email, state, requestedAt: now, answeredAt: now })
      .onConflictDoUpdate({
        target: [mailRecipients.workspaceId, mailRecipients.email],
        set: { state, answeredAt: now },
      });
  }
}
