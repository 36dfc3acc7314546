import {
  addDays,
  derivedMetrics,
  emptyTotals,
  latestLocalDate,
  type Report,
  REPORT_DAILY_SERIES_MAX,
  type ReportDay,
  type ReportPoint,
  type ReportOverview,
  type ReportOverviewQuery,
  type ReportQuery,
  type ReportSeries,
} from '@adpilot/contracts';
import type { Transactions, TenantScope } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { AdMirrorService, ReportAccount, ReportRow } from '../ad-accounts/index.ts';
import type { RuleImpactService } from '../rules/index.ts';
import { currencyDays, dates, round } from './report-days.ts';

export interface ReportsDeps {
  transactions: Transactions;
  /** The ad-accounts module's read API on the synced insights, read in the report's unit of work (ADR 0066). */
  mirror: Pick<AdMirrorService, 'reportAccounts' | 'reportAccountDays' | 'reportCampaignTotals' | 'reportCampaignDays'>;
  /** The rules module's read of its action ledger with each action's impact, in the overview's unit of work. */
  ruleActions: Pick<RuleImpactService, 'workspaceActions'>;
  now: () => Date;
}

/** A day's (or a range's) figures rounded, with CPA and ROAS where defined. */
export function point(date: string, spend: number, conversions: number, conversionValue: number): ReportPoint {
  const totals = { ...emptyTotals(), spend, conversions, conversionValue };
  const cpa = derivedMetrics.cpa(totals);
  const roas = derivedMetrics.roas(totals);
  return {
    date,
    spend: round(spend),
    conversions: round(conversions),
    conversionValue: round(conversionValue),
    cpa: cpa === null ? null : round(cpa),
    roas: roas === null ? null : round(roas),
  };
}

/** A day before the account's first data: nothing is known of it, so nothing is drawn or summed as zero. */
const noData = (date: string): ReportDay => ({
  date,
  hasData: false,
  spend: null,
  conversions: null,
  conversionValue: null,
  cpa: null,
  roas: null,
});

interface Group {
  account: ReportAccount;
  id: string;
  name: string;
  rows: ReportRow[];
  /** The range's sums when the database made them (per campaign); otherwise summed from `rows`. */
  total: { spend: number; conversions: number; conversionValue: number } | null;
  daily: boolean;
}

const bySpend = (a: { spend: number; campaignId: string | null }, b: { spend: number; campaignId: string | null }) =>
  b.spend - a.spend || String(a.campaignId).localeCompare(String(b.campaignId));

const bySpendThenName = (a: ReportSeries, b: ReportSeries) =>
  b.totals.spend - a.totals.spend || a.name.localeCompare(b.name);

/** GET /api/reports: per-day spend, conversions, CPA and ROAS per account or campaign, each in its currency. */
export class ReportsService {
  constructor(private readonly deps: ReportsDeps) {}

  async report(scope: TenantScope, query: ReportQuery): Promise<Report> {
    const { mirror } = this.deps;
    const data = await this.deps.transactions.tenant(scope, async (tx) => {
      const accounts = await mirror.reportAccounts(tx, query.adAccountId);
      if (query.adAccountId && accounts.length === 0) throw AppError.notFound('Ad account not found');
      const scope = { from: query.from, to: query.to, adAccountIds: accounts.map((account) => account.id) };
      if (query.level === 'account') return { accounts, totals: null, rows: await mirror.reportAccountDays(tx, scope) };
      // Per campaign: every campaign's totals, and the days of the ones that spent most only (ADR 0047).
      const totals = (await mirror.reportCampaignTotals(tx, scope)).sort(bySpend);
      const daily = totals.slice(0, REPORT_DAILY_SERIES_MAX).map((row) => row.campaignId as string);
      return { accounts, totals, rows: await mirror.reportCampaignDays(tx, scope, daily) };
    });
    const range = dates(query.from, query.to);
    const byAccount = new Map(data.accounts.map((account) => [account.id, account]));
    const groups = new Map<string, Group>();
    const key = (row: { adAccountId: string; campaignId: string | null }) =>
      query.level === 'account' ? row.adAccountId : `${row.adAccountId}:${row.campaignId}`;
    if (data.totals === null) {
      for (const account of data.accounts)
        groups.set(account.id, { account, id: account.id, name: account.name, rows: [], total: null, daily: true });
    } else {
      data.totals.forEach((row, index) => {
        const account = byAccount.get(row.adAccountId);
        if (!account) return;
        const id = row.campaignId ?? '';
        const name = row.campaignName ?? id;
        groups.set(key(row), { account, id, name, rows: [], total: row, daily: index < REPORT_DAILY_SERIES_MAX });
      });
    }
    for (const row of data.rows) groups.get(key(row))?.rows.push(row);

    const series: ReportSeries[] = [...groups.values()].map((group) => {
      const byDate = new Map(group.rows.map((row) => [row.date, row]));
      const first = group.account.firstDataDay;
      const days = group.daily
        ? range.map((date): ReportDay => {
            if (first === null || date < first) return noData(date);
            const row = byDate.get(date);
            return { ...point(date, row?.spend ?? 0, row?.conversions ?? 0, row?.conversionValue ?? 0), hasData: true };
          })
        : [];
      const sum =
        group.total ??
        group.rows.reduce(
          (into, row) => ({
            spend: into.spend + row.spend,
            conversions: into.conversions + row.conversions,
            conversionValue: into.conversionValue + row.conversionValue,
          }),
          { spend: 0, conversions: 0, conversionValue: 0 },
        );
      const { date: _date, ...totals } = point('', sum.spend, sum.conversions, sum.conversionValue);
      return {
        id: group.id,
        level: query.level,
        name: group.name,
        adAccountId: group.account.id,
        adAccountName: group.account.name,
        currency: group.account.currency,
        days,
        firstDataDay: first,
        totals,
      };
    });
    series.sort(bySpendThenName);
    return { from: query.from, to: query.to, level: query.level, series };
  }

  /**
   * GET /api/reports/overview: the dashboard's one read. Every account's spend and results per local day, summed per
   * currency (never across), the rules' applied actions counted on their day, and what the rules did this month.
   */
  async overview(scope: TenantScope, query: ReportOverviewQuery): Promise<ReportOverview> {
    const { mirror, ruleActions } = this.deps;
    const data = await this.deps.transactions.tenant(scope, async (tx) => {
      const accounts = await mirror.reportAccounts(tx);
      const to = query.to ?? this.accountsToday(accounts);
      const from = addDays(to, -(query.days - 1));
      const monthFrom = `${to.slice(0, 8)}01`;
      const rows = accounts.length
        ? await mirror.reportAccountDays(tx, { from, to, adAccountIds: accounts.map((account) => account.id) })
        : [];
      const rules = await ruleActions.workspaceActions(tx, {
        from: from < monthFrom ? from : monthFrom,
        to,
        totalsFrom: monthFrom,
      });
      return { from, to, monthFrom, accounts, rows, rules };
    });
    const { from, to, monthFrom } = data;
    const currencies = currencyDays(dates(from, to), data.accounts, data.rows, data.rules.actions);
    return {
      from,
      to,
      accounts: data.accounts.length,
      currencies,
      month: { from: monthFrom, to, totals: data.rules.totals },
    };
  }

  /**
   * The day a window with no end ends on: the accounts' today as the web reckons it (ADR 0131), so a client that
   * names no `to` reads the same days as the dashboard; the server's UTC day only with no account.
   */
  private accountsToday(accounts: readonly ReportAccount[]): string {
    const now = this.deps.now().getTime();
    return (
      latestLocalDate(
        accounts.map((account) => account.timeZone),
        now,
      ) ?? new Date(now).toISOString().slice(0, 10)
    );
  }
}
