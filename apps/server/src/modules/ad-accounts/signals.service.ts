import {
  addDays,
  describeActivity,
  localDate,
  localMinutesOfDay,
  MONTHLY_BUDGET_MESSAGES,
  type ActivityCode,
  type CodeParams,
  type MonthlyBudget,
  type SetMonthlyBudgetRequest,
} from '@adpilot/contracts';
import type { AdAccountRow, MonthlyBudgetRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import {
  ANOMALY_MIN_DAY_SHARE,
  dayNumber,
  findAnomalies,
  pacingAlert,
  pacingPercent,
  projectMonth,
  type AnomalyDay,
  type AnomalySensitivity,
} from '@adpilot/engine';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdAccountsRepository } from './ad-accounts.repository.ts';
import type { CampaignDay, SignalsRepository, WatchedCampaign } from './signals.repository.ts';

export interface SignalsDeps {
  transactions: Transactions;
  repository: SignalsRepository;
  accounts: AdAccountsRepository;
  activity: Pick<ActivityRepository, 'insert'>;
  now: () => Date;
}

/** The account as the watch reads it (the sync hands over what it just read from Meta). */
type WatchedAccount = Pick<
  AdAccountRow,
  'id' | 'facebookAccountName' | 'currency' | 'timezone' | 'anomalySensitivity' | 'anomalyMutedUntil'
>;

/** How many days back the watch reads: the month so far, and the three weeks the anomaly baseline spans. */
const BASELINE_WEEKS = 3;
const MONEY_METRICS = new Set(['spend', 'cpa', 'cpm']);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Sums of the rows of one campaign ('' all of them) on each date. */
function byDate(days: readonly CampaignDay[], campaign: string): Map<string, AnomalyDay> {
  const out = new Map<string, AnomalyDay>();
  for (const day of days) {
    if (campaign !== '' && day.campaignExternalId !== campaign) continue;
    const sum = out.get(day.date) ?? { spend: 0, impressions: 0, conversions: 0 };
    sum.spend += day.spend;
    sum.impressions += day.impressions;
    sum.conversions += day.conversions;
    out.set(day.date, sum);
  }
  return out;
}

function spendBetween(dates: Map<string, AnomalyDay>, from: string, to: string): number {
  let total = 0;
  for (const [date, day] of dates) if (date >= from && date <= to) total += day.spend;
  return total;
}

/**
 * Monthly budgets with their pacing (ADR 0124) and the anomaly watch (ADR 0125). Both are judged on what the mirror
 * holds, in the unit of work a sync lands in, and each alert is written once: once a month per budget and kind,
 * once per anomaly episode. The entries are warnings the notifier sends at once.
 */
export class SignalsService {
  constructor(private readonly deps: SignalsDeps) {}

  private async owned(tx: TenantTx, id: string): Promise<AdAccountRow> {
    const row = await this.deps.accounts.find(tx, id);
    if (!row) throw AppError.notFound('Ad account not found');
    return row;
  }

  /** The account's budgets, each with this local month's pacing. */
  async budgets(scope: TenantScope, adAccountId: string): Promise<MonthlyBudget[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const account = await this.owned(tx, adAccountId);
      return this.presentBudgets(tx, account);
    });
  }

  /** Sets or removes one budget and answers the account's budgets. */
  async setBudget(scope: TenantScope, adAccountId: string, body: SetMonthlyBudgetRequest): Promise<MonthlyBudget[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const account = await this.owned(tx, adAccountId);
      const campaign = body.campaign_id ?? '';
      if (campaign !== '') {
        const campaigns = await this.deps.repository.campaigns(tx, account.id);
        if (!campaigns.some((c) => c.externalId === campaign))
          throw AppError.notFound(MONTHLY_BUDGET_MESSAGES.campaignNotFound);
      }
      if (body.amount === null) await this.deps.repository.removeBudget(tx, account.id, campaign);
      else await this.deps.repository.setBudget(tx, account.id, campaign, body.amount);
      return this.presentBudgets(tx, account);
    });
  }

  /** "Mute 24 h": no new episode of the account is written or sent until then; 0 hours lifts it. */
  async mute(scope: TenantScope, adAccountId: string, hours: number): Promise<{ muted_until: string | null }> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      await this.owned(tx, adAccountId);
      const until = hours > 0 ? new Date(this.deps.now().getTime() + hours * 3_600_000) : null;
      await this.deps.accounts.update(tx, adAccountId, { anomalyMutedUntil: until });
      return { muted_until: until?.toISOString() ?? null };
    });
  }

  /** Judges an account's budgets and anomalies on the mirror as it now stands (the sync's landing unit of work). */
  async watch(tx: TenantTx, account: WatchedAccount, at: Date): Promise<void> {
    const today = localDate(account.timezone, at.getTime());
    const monthFirst = `${today.slice(0, 8)}01`;
    const baselineFrom = addDays(today, -7 * BASELINE_WEEKS);
    const days = await this.deps.repository.campaignDays(
      tx,
      account.id,
      monthFirst < baselineFrom ? monthFirst : baselineFrom,
      today,
    );
    const budgets = await this.deps.repository.budgets(tx, account.id);
    const campaigns = await this.deps.repository.campaigns(tx, account.id);
    await this.pace(tx, account, today, days, budgets, campaigns);
    await this.watchAnomalies(tx, account, today, at, days, campaigns);
  }

  private pacing(today: string, days: readonly CampaignDay[], budget: MonthlyBudgetRow) {
    const dates = byDate(days, budget.campaignExternalId);
    const yesterday = addDays(today, -1);
    const pace = projectMonth({
      today: dayNumber(today),
      monthToDate: spendBetween(dates, `${today.slice(0, 8)}01`, yesterday),
      last7Days: spendBetween(dates, addDays(today, -7), yesterday),
    });
    return { pace, alert: pacingAlert(dayNumber(today), pace, budget.amount) };
  }

  private nameOf(account: WatchedAccount, campaigns: readonly WatchedCampaign[], campaign: string): string {
    return campaign === ''
      ? account.facebookAccountName
      : (campaigns.find((c) => c.externalId === campaign)?.name ?? campaign);
  }

  private async presentBudgets(tx: TenantTx, account: AdAccountRow): Promise<MonthlyBudget[]> {
    const today = localDate(account.timezone, this.deps.now().getTime());
    const days = await this.deps.repository.campaignDays(tx, account.id, addDays(today, -31), today);
    const campaigns = await this.deps.repository.campaigns(tx, account.id);
    return (await this.deps.repository.budgets(tx, account.id)).map((budget) => {
      const { pace, alert } = this.pacing(today, days, budget);
      return {
        campaign_id: budget.campaignExternalId === '' ? null : budget.campaignExternalId,
        name: this.nameOf(account, campaigns, budget.campaignExternalId),
        amount: budget.amount,
        currency: account.currency,
        month: today.slice(0, 7),
        month_to_date: round2(pace.monthToDate),
        projected: round2(pace.projected),
        percent: round2(pacingPercent(pace.projected, budget.amount) ?? 0),
        status: alert ?? 'on_track',
      };
    });
  }

  private async pace(
    tx: TenantTx,
    account: WatchedAccount,
    today: string,
    days: readonly CampaignDay[],
    budgets: readonly MonthlyBudgetRow[],
    campaigns: readonly WatchedCampaign[],
  ): Promise<void> {
    const month = today.slice(0, 7);
    for (const budget of budgets) {
      const { pace, alert } = this.pacing(today, days, budget);
      if (!alert || !(await this.deps.repository.claimAlert(tx, budget.id, alert, month))) continue;
      const base = {
        accountName: account.facebookAccountName,
        target: this.nameOf(account, campaigns, budget.campaignExternalId),
        budget: budget.amount,
        currency: account.currency,
      };
      const params: CodeParams =
        alert === 'over'
          ? {
              ...base,
              projected: round2(pace.projected),
              percent: Math.round((pace.projected / budget.amount) * 100),
            }
          : {
              ...base,
              spent: round2(pace.monthToDate),
              percent: Math.round((pace.monthToDate / budget.amount) * 100),
            };
      await this.write(tx, account, alert === 'over' ? 'budget_pacing_over' : 'budget_pacing_under', params, {
        campaignExternalId: budget.campaignExternalId || null,
        month,
      });
    }
  }

  private async watchAnomalies(
    tx: TenantTx,
    account: WatchedAccount,
    today: string,
    at: Date,
    days: readonly CampaignDay[],
    campaigns: readonly WatchedCampaign[],
  ): Promise<void> {
    const sensitivity = account.anomalySensitivity as AnomalySensitivity;
    const dayShare = localMinutesOfDay(account.timezone, at.getTime()) / 1440;
    const judged = sensitivity !== 'off' && dayShare >= ANOMALY_MIN_DAY_SHARE;
    const baselineDates = Array.from({ length: BASELINE_WEEKS }, (_, week) => addDays(today, -7 * (week + 1)));
    const seen = new Map<string, { metric: string; entity: string; direction: 'up' | 'down'; params: CodeParams }>();
    if (judged) {
      const totals = byDate(days, '');
      const findings = findAnomalies({
        today: totals.get(today) ?? { spend: 0, impressions: 0, conversions: 0 },
        baselineDays: baselineDates.map((date) => totals.get(date)),
        dayShare,
        sensitivity,
      });
      for (const finding of findings) {
        const money = MONEY_METRICS.has(finding.metric);
        seen.set(`${finding.metric}|`, {
          metric: finding.metric,
          entity: '',
          direction: finding.direction,
          params: {
            accountName: account.facebookAccountName,
            metric: finding.metric,
            current: round2(finding.current),
            baseline: round2(finding.baseline),
            ...(money ? { currency: account.currency } : {}),
          },
        });
      }
      for (const campaign of campaigns) {
        if (campaign.effectiveStatus !== 'ACTIVE' || !campaign.hasBudget) continue;
        const dates = byDate(days, campaign.externalId);
        const delivered = baselineDates.filter((date) => (dates.get(date)?.spend ?? 0) > 0).length;
        if ((dates.get(today)?.spend ?? 0) > 0 || delivered < 2) continue;
        seen.set(`no_delivery|${campaign.externalId}`, {
          metric: 'no_delivery',
          entity: campaign.externalId,
          direction: 'down',
          params: { accountName: account.facebookAccountName, target: campaign.name },
        });
      }
    }
    const open = await this.deps.repository.openEpisodes(tx, account.id);
    const ended: string[] = [];
    const continued: string[] = [];
    for (const episode of open) {
      const now = seen.get(`${episode.metric}|${episode.entityExternalId}`);
      // Not judged (early in the day, or switched off): today's episodes stay open, earlier days' end.
      const keep = now ? now.direction === episode.direction : !judged && episode.day === today;
      if (keep) {
        continued.push(episode.id);
        seen.delete(`${episode.metric}|${episode.entityExternalId}`);
      } else ended.push(episode.id);
    }
    await this.deps.repository.endEpisodes(tx, ended, at);
    await this.deps.repository.touchEpisodes(tx, continued, at);
    const muted = account.anomalyMutedUntil !== null && account.anomalyMutedUntil > at;
    for (const found of seen.values()) {
      const opened = await this.deps.repository.openEpisode(
        tx,
        {
          adAccountId: account.id,
          metric: found.metric,
          entityExternalId: found.entity,
          direction: found.direction,
          day: today,
          notified: !muted,
        },
        at,
      );
      if (!opened || muted) continue;
      const code =
        found.metric === 'no_delivery'
          ? 'delivery_stopped'
          : found.direction === 'up'
            ? 'anomaly_jump'
            : 'anomaly_drop';
      await this.write(tx, account, code, found.params, {
        metric: found.metric,
        campaignExternalId: found.entity || null,
      });
    }
  }

  private async write(
    tx: TenantTx,
    account: WatchedAccount,
    code: ActivityCode,
    params: CodeParams,
    extra: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.activity.insert(tx, {
      level: 'warning',
      category: 'system',
      description: describeActivity(code, params),
      adAccountId: account.id,
      metadata: { code, params, ...extra },
    });
  }
}
