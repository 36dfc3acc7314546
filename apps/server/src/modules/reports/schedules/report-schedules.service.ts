import {
  REPORT_SCHEDULE_MESSAGES,
  REPORT_SCHEDULES_MAX,
  REPORT_SENDS_PER_HOUR,
  type CreateReportScheduleInput,
  type ReportDelivery,
  type ReportSchedule,
  type UpdateReportScheduleInput,
} from '@adpilot/contracts';
import type { ReportScheduleRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import type { AdMirrorService, ReportAccount } from '../../ad-accounts/index.ts';
import type { AttemptLimiter } from '../../auth/index.ts';
import { scheduleTimeZone, todayIn } from './report-builder.ts';
import type { ReportSender } from './report-sender.ts';
import { lastFullPeriod, nextScheduledPeriod } from './report-periods.ts';
import { presentDelivery, presentSchedule } from './report-schedules.presenter.ts';
import type { ReportSchedulesRepository } from './report-schedules.repository.ts';

export interface ReportSchedulesDeps {
  transactions: Transactions;
  repository: ReportSchedulesRepository;
  mirror: Pick<AdMirrorService, 'reportAccounts'>;
  sender: ReportSender;
  /** The database-backed attempt counters ("Send now" is limited per schedule across every API process). */
  limiter: Pick<AttemptLimiter, 'take'>;
  now: () => Date;
}

/** "Send now": at most REPORT_SENDS_PER_HOUR an hour per schedule, whoever asks. */
const SEND_NOW_LIMIT = {
  name: 'report-send',
  scope: 'account',
  max: REPORT_SENDS_PER_HOUR,
  windowSeconds: 3600,
} as const;

const notFound = () => AppError.notFound(REPORT_SCHEDULE_MESSAGES.notFound);

const unknownAccount = () =>
  new AppError('VALIDATION_ERROR', REPORT_SCHEDULE_MESSAGES.adAccountInvalid, 400, [
    { field: 'adAccountIds', message: REPORT_SCHEDULE_MESSAGES.adAccountInvalid },
  ]);

/**
 * Scheduled reports (ADR 0080): a workspace's schedules (read by viewers, changed by editors), "Send now" and the
 * preview. The clock's deliveries are `ReportScheduler`'s.
 */
export class ReportSchedulesService {
  constructor(private readonly deps: ReportSchedulesDeps) {}

  async list(scope: TenantScope): Promise<ReportSchedule[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const rows = await this.deps.repository.list(tx);
      return this.presentAll(tx, rows, await this.deps.mirror.reportAccounts(tx));
    });
  }

  async create(scope: TenantScope, input: CreateReportScheduleInput): Promise<ReportSchedule> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const accounts = await this.deps.mirror.reportAccounts(tx);
      checkAccounts(input.adAccountIds, accounts);
      await this.deps.repository.lockCreation(tx);
      if ((await this.deps.repository.countIn(tx)) >= REPORT_SCHEDULES_MAX)
        throw new AppError(
          'REPORT_SCHEDULE_LIMIT_REACHED',
          REPORT_SCHEDULE_MESSAGES.tooMany,
          409,
          undefined,
          undefined,
          {
            limit: REPORT_SCHEDULES_MAX,
          },
        );
      const row = await this.deps.repository.insert(tx, input, this.deps.now());
      const [presented] = await this.presentAll(tx, [row], accounts);
      return presented!;
    });
  }

  async update(scope: TenantScope, id: string, input: UpdateReportScheduleInput): Promise<ReportSchedule> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      if (!(await this.deps.repository.find(tx, id))) throw notFound();
      const accounts = await this.deps.mirror.reportAccounts(tx);
      if (input.adAccountIds !== undefined) checkAccounts(input.adAccountIds, accounts);
      const fields = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
      const row = await this.deps.repository.update(tx, id, fields, this.deps.now());
      if (!row) throw notFound();
      const [presented] = await this.presentAll(tx, [row], accounts);
      return presented!;
    });
  }

  async remove(scope: TenantScope, id: string): Promise<void> {
    const removed = await this.deps.transactions.tenant(scope, (tx) => this.deps.repository.delete(tx, id));
    if (!removed) throw notFound();
  }

  /**
   * POST /api/reports/schedules/:id/send: the last full period's report, mailed now, once (no retry: the person sees
   * the outcome). Counted per schedule before anything is sent.
   */
  async sendNow(scope: TenantScope, id: string): Promise<ReportDelivery> {
    const { transactions, repository } = this.deps;
    const { schedule, timeZone } = await this.scheduleOf(scope, id);
    await this.deps.limiter.take(
      [SEND_NOW_LIMIT],
      { account: `report-schedule:${id}`, address: '' },
      REPORT_SCHEDULE_MESSAGES.sendsTooMany,
    );
    const now = this.deps.now();
    const period = lastFullPeriod(schedule.frequency, todayIn(timeZone, now));
    const delivery = await transactions.tenant(scope, (tx) => repository.insertManual(tx, schedule, period, now));
    const finished = await this.deps.sender.attempt(scope, delivery.id, { number: 1, final: true });
    if (!finished) throw notFound();
    return presentDelivery(finished);
  }

  /** GET /api/reports/schedules/:id/preview: the PDF of the last full period, as it would be attached now. */
  async preview(scope: TenantScope, id: string): Promise<{ fileName: string; pdf: Buffer }> {
    const { schedule, timeZone } = await this.scheduleOf(scope, id);
    const period = lastFullPeriod(schedule.frequency, todayIn(timeZone, this.deps.now()));
    const { fileName, pdf } = await this.deps.sender.render(scope, schedule, period);
    return { fileName, pdf };
  }

  private async scheduleOf(scope: TenantScope, id: string) {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const schedule = await this.deps.repository.find(tx, id);
      if (!schedule) throw notFound();
      return { schedule, timeZone: scheduleTimeZone(schedule, await this.deps.mirror.reportAccounts(tx)) };
    });
  }

  private async presentAll(tx: TenantTx, rows: ReportScheduleRow[], accounts: ReportAccount[]) {
    const ids = rows.map((row) => row.id);
    const last = await this.deps.repository.lastDeliveries(tx, ids);
    const claimed = await this.deps.repository.latestScheduledStarts(tx, ids);
    const now = this.deps.now();
    return rows.map((row) => {
      const timeZone = scheduleTimeZone(row, accounts);
      const latest = claimed.get(row.id);
      const next = nextScheduledPeriod(row.frequency, timeZone, now, {
        createdAt: row.createdAt,
        sentStarts: new Set(latest ? [latest] : []),
      });
      return presentSchedule(row, { timeZone, nextDueAt: next.dueAt, lastDelivery: last.get(row.id) });
    });
  }
}

/** Every named account must be one of the workspace's: another workspace's id is as unknown as a made-up one. */
function checkAccounts(ids: readonly string[] | null, accounts: readonly ReportAccount[]): void {
  if (!ids) return;
  const known = new Set(accounts.map((account) => account.id));
  if (ids.some((id) => !known.has(id))) throw unknownAccount();
}
