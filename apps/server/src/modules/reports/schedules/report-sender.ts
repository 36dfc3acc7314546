import { describeActivity, type RecipientOutcome } from '@adpilot/contracts';
import type { ReportDeliveryRow, ReportScheduleRow, TenantScope, Transactions } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import type { OutboundMail } from '../../outbound/index.ts';
import type { ActivityRepository } from '../../activity/index.ts';
import { renderReportPdf } from '../pdf/report-pdf.ts';
import type { ReportDocument } from '../report-document.ts';
import type { ReportBuilder } from './report-builder.ts';
import { reportFileName, reportMailText } from './report-mail-text.ts';
import type { ReportSchedulesRepository } from './report-schedules.repository.ts';

/**
 * A delivery's failure, stored as its code (never words): the PDF could not be made, a mail not sent, or a day's
 * mail budget used up for some address (ADR 0092; not tried again: the budget does not come back within the retries).
 */
export type ReportFailureCode = 'render_failed' | 'mail_failed' | 'mail_limited';

/** Report mail carries no link: the outbox keeps a copy this long for the administrator. */
const KEPT_MS = 14 * 86_400_000;

export interface ReportSenderDeps {
  transactions: Transactions;
  repository: ReportSchedulesRepository;
  builder: ReportBuilder;
  /** Outbound mail's policy: budgets, the first mail asking an outside address to confirm, unsubscribe (ADR 0092). */
  outbound: Pick<OutboundMail, 'send'>;
  activity: Pick<ActivityRepository, 'insert'>;
  render?: (doc: ReportDocument) => Promise<Buffer>;
  now: () => Date;
}

class DeliveryFailure extends Error {
  constructor(
    readonly code: ReportFailureCode,
    readonly reason: unknown,
    /** A failure a retry cannot mend. */
    readonly final = false,
  ) {
    super(`report delivery failed: ${code}`);
  }
}

/**
 * Sends one delivery of a report (ADR 0080): the document gathered, the PDF rendered, one mail per recipient (an
 * outside client never sees the other addresses) with the PDF attached. Each address mailed is noted on the row, so
 * a retry after a partial failure mails only the others. The last attempt, sent or not, finishes the row and writes
 * the workspace's activity entry; an earlier failed attempt throws for the queue to try again later.
 */
export class ReportSender {
  constructor(private readonly deps: ReportSenderDeps) {}

  /** The document and its PDF (a preview, and each delivery). */
  async render(scope: TenantScope, schedule: ReportScheduleRow, period: { start: string; end: string }) {
    const doc = await this.deps.builder.document(scope, schedule, period);
    const pdf = await (this.deps.render ?? renderReportPdf)(doc);
    return { doc, pdf, fileName: reportFileName(doc) };
  }

  /**
   * Attempt `attempt` (1-based) of a delivery; `final` when no retry follows. Answers the row as it stands after it,
   * or undefined when it is gone (its schedule deleted) or was already finished (a repeated job).
   */
  async attempt(
    scope: TenantScope,
    deliveryId: string,
    attempt: { number: number; final: boolean },
  ): Promise<ReportDeliveryRow | undefined> {
    const { transactions, repository } = this.deps;
    const found = await transactions.tenant(scope, async (tx) => {
      const delivery = await repository.findDelivery(tx, deliveryId);
      const schedule = delivery && (await repository.find(tx, delivery.scheduleId));
      return delivery && schedule ? { delivery, schedule } : undefined;
    });
    if (!found || found.delivery.status !== 'pending') return undefined;
    const { delivery, schedule } = found;
    try {
      await this.send(scope, delivery, schedule);
    } catch (error) {
      const code = error instanceof DeliveryFailure ? error.code : 'mail_failed';
      if (!attempt.final && !(error instanceof DeliveryFailure && error.final)) {
        await transactions.tenant(scope, (tx) =>
          repository.finish(tx, delivery.id, {
            status: 'pending',
            attempts: attempt.number,
            errorCode: code,
            at: this.deps.now(),
          }),
        );
        throw error instanceof DeliveryFailure ? error.reason : error;
      }
      const closed = await this.close(scope, delivery, { status: 'failed', attempts: attempt.number, errorCode: code });
      // "Send now" that a spent budget stopped before anything went: the person is told so, as a 429.
      const nothingWent = Object.values(closed.outcomes ?? {}).every((outcome) => outcome === 'limited');
      if (code === 'mail_limited' && delivery.trigger === 'manual' && nothingWent && error instanceof DeliveryFailure)
        throw error.reason;
      return closed;
    }
    return this.close(scope, delivery, { status: 'sent', attempts: attempt.number, errorCode: null });
  }

  private async send(scope: TenantScope, delivery: ReportDeliveryRow, schedule: ReportScheduleRow): Promise<void> {
    let rendered: Awaited<ReturnType<ReportSender['render']>>;
    try {
      rendered = await this.render(scope, schedule, { start: delivery.periodStart, end: delivery.periodEnd });
    } catch (error) {
      throw new DeliveryFailure('render_failed', error);
    }
    const { subject, text } = reportMailText(rendered.doc);
    const done = new Set(delivery.sentTo);
    let limited: AppError | undefined;
    for (const to of delivery.recipients) {
      if (done.has(to)) continue;
      let outcome: RecipientOutcome;
      try {
        outcome = await this.deps.outbound.send(
          {
            workspace: { id: scope.workspaceId, name: rendered.doc.workspaceName },
            senderId: delivery.trigger === 'manual' ? scope.userId : null,
            to,
            kind: 'report',
          },
          {
            subject,
            text,
            expiresAt: new Date(this.deps.now().getTime() + KEPT_MS),
            attachments: [{ fileName: rendered.fileName, contentType: 'application/pdf', content: rendered.pdf }],
          },
        );
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'MAIL_LIMIT_REACHED'))
          throw new DeliveryFailure('mail_failed', error);
        limited ??= error;
        outcome = 'limited';
      }
      await this.deps.transactions.tenant(scope, (tx) => this.deps.repository.markSentTo(tx, delivery.id, to, outcome));
    }
    if (limited) throw new DeliveryFailure('mail_limited', limited, true);
  }

  /** Finishes the row and writes the entry, in one unit of work. */
  private close(
    scope: TenantScope,
    delivery: ReportDeliveryRow,
    outcome: { status: 'sent' | 'failed'; attempts: number; errorCode: ReportFailureCode | null },
  ): Promise<ReportDeliveryRow> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const row = await this.deps.repository.finish(tx, delivery.id, { ...outcome, at: this.deps.now() });
      const code = outcome.status === 'sent' ? 'report_sent' : 'report_failed';
      const params: Record<string, string | number> =
        outcome.status === 'sent'
          ? { from: delivery.periodStart, to: delivery.periodEnd, recipients: reportsMailed(row) }
          : { from: delivery.periodStart, to: delivery.periodEnd, attempts: outcome.attempts };
      await this.deps.activity.insert(tx, {
        level: outcome.status === 'sent' ? 'success' : 'error',
        category: 'notification',
        description: describeActivity(code, params),
        metadata: { code, params, scheduleId: delivery.scheduleId, deliveryId: delivery.id, trigger: delivery.trigger },
      });
      return row;
    });
  }
}

/** The addresses that received the report itself (not the question asked first, nor nothing; ADR 0092). */
function reportsMailed(row: ReportDeliveryRow): number {
  const outcomes = Object.values(row.outcomes ?? {});
  return outcomes.length ? outcomes.filter((outcome) => outcome === 'sent').length : row.sentTo.length;
}
