import { localDate } from '@adpilot/contracts';
import type { ReportScheduleRow, SystemTx, TenantTx, Transactions } from '@adpilot/db';
import type { AdMirrorService, ReportAccount } from '../../ad-accounts/index.ts';
import type { ProposalsService, RuleImpactService } from '../../rules/index.ts';
import type { ReportAccountSection, ReportDocument, ReportFigures, ReportRow } from '../report-document.ts';
import { currencyDays, dates, round } from '../report-days.ts';
import { point } from '../reports.service.ts';
import { previousPeriod, type ReportPeriod } from './report-periods.ts';

export interface ReportBuilderDeps {
  transactions: Transactions;
  mirror: Pick<AdMirrorService, 'reportAccounts' | 'reportAccountDays' | 'reportCampaignTotals'>;
  ruleActions: Pick<RuleImpactService, 'workspaceActions' | 'moneyByCurrency'>;
  proposals: Pick<ProposalsService, 'countWaitingIn'>;
  /** The workspace's name, read on the system path (a job's unit of work has no member to read it as). */
  workspaceName: (tx: SystemTx, workspaceId: string) => Promise<string | null>;
  now: () => Date;
}

/** The accounts a schedule covers: those it names that still exist, or every account of the workspace. */
export function coveredAccounts(schedule: Pick<ReportScheduleRow, 'adAccountIds'>, accounts: ReportAccount[]) {
  if (!schedule.adAccountIds) return accounts;
  const named = new Set(schedule.adAccountIds);
  return accounts.filter((account) => named.has(account.id));
}

/** The zone a schedule's periods are read in: its first ad account's (the first it names), UTC without one. */
export function scheduleTimeZone(schedule: Pick<ReportScheduleRow, 'adAccountIds'>, accounts: ReportAccount[]) {
  const first = schedule.adAccountIds
    ? accounts.find((account) => account.id === schedule.adAccountIds?.[0])
    : accounts[0];
  return first?.timeZone ?? coveredAccounts(schedule, accounts)[0]?.timeZone ?? 'UTC';
}

type Sums = { spend: number; conversions: number; conversionValue: number };
const none: Sums = { spend: 0, conversions: 0, conversionValue: 0 };

function figuresOf(sums: Sums | undefined): ReportFigures {
  const { spend, conversions, conversionValue } = sums ?? none;
  const shown = point('', spend, conversions, conversionValue);
  return { spend: shown.spend, results: shown.conversions, cpa: shown.cpa, roas: shown.roas };
}

const add = (into: Sums, row: Sums): Sums => ({
  spend: into.spend + row.spend,
  conversions: into.conversions + row.conversions,
  conversionValue: into.conversionValue + row.conversionValue,
});

/**
 * Gathers a scheduled report's `ReportDocument` (ADR 0080) in one unit of work of the schedule's workspace: each
 * covered account's and campaign's figures against the period before (the reports' and the mirror's sums), the chart
 * days per currency and the rules' applied actions (the overview's and the rule impact's arithmetic), and the
 * proposals waiting now.
 */
export class ReportBuilder {
  constructor(private readonly deps: ReportBuilderDeps) {}

  async build(
    tx: TenantTx,
    schedule: ReportScheduleRow,
    period: ReportPeriod,
  ): Promise<Omit<ReportDocument, 'workspaceName'>> {
    const { mirror, ruleActions } = this.deps;
    const previous = previousPeriod(schedule.frequency, period);
    const accounts = coveredAccounts(schedule, await mirror.reportAccounts(tx));
    const adAccountIds = accounts.map((account) => account.id);
    const current = { from: period.start, to: period.end, adAccountIds };
    const before = { from: previous.start, to: previous.end, adAccountIds };
    const days = await mirror.reportAccountDays(tx, { from: previous.start, to: period.end, adAccountIds });
    const campaigns = adAccountIds.length ? await mirror.reportCampaignTotals(tx, current) : [];
    const campaignsBefore = adAccountIds.length ? await mirror.reportCampaignTotals(tx, before) : [];
    const covered = new Set(adAccountIds);
    const { actions } = await ruleActions.workspaceActions(tx, {
      from: period.start,
      to: period.end,
      totalsFrom: period.start,
    });
    const applied = actions.filter((action) => covered.has(action.entity.adAccountId));
    const proposalsWaiting = await this.deps.proposals.countWaitingIn(tx);

    const sections: ReportAccountSection[] = accounts.map((account) => {
      let now = none;
      let then = none;
      for (const day of days) {
        if (day.adAccountId !== account.id) continue;
        if (day.date >= period.start) now = add(now, day);
        else then = add(then, day);
      }
      const earlier = new Map(
        campaignsBefore.filter((row) => row.adAccountId === account.id).map((row) => [row.campaignId, row]),
      );
      const rows: ReportRow[] = campaigns
        .filter((row) => row.adAccountId === account.id)
        .sort((a, b) => b.spend - a.spend || String(a.campaignName).localeCompare(String(b.campaignName)))
        .map((row) => ({
          name: row.campaignName ?? row.campaignId ?? '',
          current: figuresOf(row),
          previous: figuresOf(earlier.get(row.campaignId)),
        }));
      return {
        name: account.name,
        currency: account.currency,
        timeZone: account.timeZone,
        totals: { name: account.name, current: figuresOf(now), previous: figuresOf(then) },
        campaigns: rows,
      };
    });

    const chart = currencyDays(
      dates(period.start, period.end),
      accounts,
      days.filter((day) => day.date >= period.start),
      applied,
    ).map(({ currency, days: list }) => ({ currency, days: list }));

    const money = ruleActions.moneyByCurrency(applied).map((entry) => ({
      currency: entry.currency,
      spendAvoided: round(entry.spendAvoided, 2),
      budgetRaised: round(entry.budgetRaised, 2),
      budgetLowered: round(entry.budgetLowered, 2),
    }));

    return {
      language: schedule.language,
      frequency: schedule.frequency,
      period: { start: period.start, end: period.end },
      previous: { start: previous.start, end: previous.end },
      accounts: sections,
      chart,
      rules: {
        actionsApplied: applied.length,
        paused: applied.filter((action) => action.type === 'pause').length,
        budgetChanges: applied.filter((action) => action.budget !== null).length,
        proposalsWaiting,
        perCurrency: money,
      },
      generatedAt: this.deps.now().toISOString(),
    };
  }

  /** The whole document: the figures in the workspace's unit of work, its name on the system path. */
  async document(
    scope: { workspaceId: string; userId: string | null },
    schedule: ReportScheduleRow,
    period: ReportPeriod,
  ): Promise<ReportDocument> {
    const body = await this.deps.transactions.tenant(scope, (tx) => this.build(tx, schedule, period));
    const workspaceName =
      (await this.deps.transactions.system('report: workspace name', (tx) =>
        this.deps.workspaceName(tx, scope.workspaceId),
      )) ?? '';
    return { ...body, workspaceName };
  }
}

/** A local date of the zone `timeZone` at `now` (today there). */
export const todayIn = (timeZone: string, now: Date) => localDate(timeZone, now.getTime());
