import { REPORT_SEND_ATTEMPTS } from '@adpilot/contracts';
import type { ReportScheduleRow, Transactions } from '@adpilot/db';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import { workspaceJob } from '../../../lib/scope.ts';
import type { AdMirrorService } from '../../ad-accounts/index.ts';
import { scheduleTimeZone } from './report-builder.ts';
import { dueAt, latestDuePeriod } from './report-periods.ts';
import type { ReportSchedulesRepository } from './report-schedules.repository.ts';
import type { ReportSender } from './report-sender.ts';

export const REPORT_JOBS = { tick: 'report-schedules.tick', send: 'report-schedules.send' } as const;

/** A delivery still pending this long has lost its job or its request (a crash): sent again. */
const STALE_CLAIM_MS = 30 * 60_000;

export interface ReportSchedulerDeps {
  transactions: Transactions;
  repository: ReportSchedulesRepository;
  mirror: Pick<AdMirrorService, 'reportAccounts'>;
  sender: ReportSender;
  queue: Pick<JobQueue, 'send'>;
  now: () => Date;
}

/**
 * The clock of the scheduled reports (ADR 0080). The tick finds each schedule whose latest period is due (its 08:00
 * has come, it came due after the schedule was made, and no clock delivery exists for it) and claims it by inserting
 * that delivery: the partial unique index on (schedule, period start) lets one claim win however many workers tick
 * at once. Only the winner enqueues the send, keyed by the delivery, which the queue retries.
 */
export class ReportScheduler {
  constructor(private readonly deps: ReportSchedulerDeps) {}

  /** Claims every due period and enqueues its send; answers the deliveries this call claimed. */
  async enqueueDue(): Promise<string[]> {
    const { transactions, repository, mirror } = this.deps;
    const now = this.deps.now();
    const { schedules, claimed } = await transactions.system('report schedules: due scan', async (tx) => {
      const schedules = await repository.allSchedules(tx);
      return {
        schedules,
        claimed: await repository.latestScheduledStarts(
          tx,
          schedules.map((row) => row.id),
        ),
      };
    });
    const byWorkspace = new Map<string, ReportScheduleRow[]>();
    for (const schedule of schedules)
      byWorkspace.set(schedule.workspaceId, [...(byWorkspace.get(schedule.workspaceId) ?? []), schedule]);

    const work: { workspaceId: string; deliveryId: string }[] = [];
    for (const [workspaceId, list] of byWorkspace) {
      await transactions.tenant(workspaceJob(workspaceId), async (tx) => {
        const accounts = await mirror.reportAccounts(tx);
        for (const schedule of list) {
          const timeZone = scheduleTimeZone(schedule, accounts);
          const period = latestDuePeriod(schedule.frequency, timeZone, now);
          if (dueAt(timeZone, period).getTime() <= schedule.createdAt.getTime()) continue;
          const latest = claimed.get(schedule.id);
          if (latest !== undefined && latest >= period.start) continue;
          const delivery = await repository.claimScheduled(tx, schedule, period, now);
          if (delivery) work.push({ workspaceId, deliveryId: delivery.id });
        }
      });
    }
    const stale = await transactions.system('report schedules: stale claims', (tx) =>
      repository.stalePending(tx, new Date(now.getTime() - STALE_CLAIM_MS)),
    );
    for (const row of stale) work.push({ workspaceId: row.workspaceId, deliveryId: row.id });
    for (const item of work) await this.deps.queue.send(REPORT_JOBS.send, item, { singletonKey: item.deliveryId });
    return work.map((item) => item.deliveryId);
  }

  /** The send job: attempt `retryCount + 1` of REPORT_SEND_ATTEMPTS; a failure before the last throws for a retry. */
  async send(workspaceId: string, deliveryId: string, retryCount: number): Promise<void> {
    const number = retryCount + 1;
    await this.deps.sender.attempt(workspaceJob(workspaceId), deliveryId, {
      number,
      final: number >= REPORT_SEND_ATTEMPTS,
    });
  }
}
