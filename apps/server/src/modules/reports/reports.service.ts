import {
  derivedMetrics,
  emptyTotals,
  type Report,
  type ReportPoint,
  type ReportQuery,
  type ReportSeries,
} from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { addDays } from '../../lib/time-zone.ts';
import type { ReportAccount, ReportRow, ReportsRepository } from './reports.repository.ts';

export interface ReportsDeps {
  transactions: Transactions;
  repository: ReportsRepository;
}

/** Money rounded to hundredths of the major unit for the answer (sums of numeric(18,4) come back long). */
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

function point(date: string, spend: number, conversions: number, conversionValue: number): ReportPoint {
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

function dates(from: string, to: string): string[] {
  const all: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) all.push(day);
  return all;
}

/** GET /api/reports: per-day spend, conversions, CPA and ROAS per account or campaign, each in its currency. */
export class ReportsService {
  constructor(private readonly deps: ReportsDeps) {}

  async report(userId: string, query: ReportQuery): Promise<Report> {
    const { accounts, rows } = await this.deps.transactions.tenant(userId, async (tx) => {
      const accounts = await this.deps.repository.accounts(tx, query.adAccountId);
      if (query.adAccountId && accounts.length === 0) throw AppError.notFound('Ad account not found');
      return { accounts, rows: await this.deps.repository.days(tx, query) };
    });
    const range = dates(query.from, query.to);
    const byAccount = new Map(accounts.map((account) => [account.id, account]));
    const groups = new Map<string, { account: ReportAccount; id: string; name: string; rows: ReportRow[] }>();
    if (query.level === 'account')
      for (const account of accounts) groups.set(account.id, { account, id: account.id, name: account.name, rows: [] });
    for (const row of rows) {
      const account = byAccount.get(row.adAccountId);
      if (!account) continue;
      const key = query.level === 'account' ? row.adAccountId : `${row.adAccountId}:${row.campaignId}`;
      let group = groups.get(key);
      if (!group) {
        group = { account, id: row.campaignId ?? '', name: row.campaignName ?? row.campaignId ?? '', rows: [] };
        groups.set(key, group);
      }
      group.rows.push(row);
    }
    const series: ReportSeries[] = [...groups.values()].map((group) => {
      const byDate = new Map(group.rows.map((row) => [row.date, row]));
      const days = range.map((date) => {
        const row = byDate.get(date);
        return point(date, row?.spend ?? 0, row?.conversions ?? 0, row?.conversionValue ?? 0);
      });
      const sum = group.rows.reduce(
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
        totals,
      };
    });
    series.sort((a, b) => b.totals.spend - a.totals.spend || a.name.localeCompare(b.name));
    return { from: query.from, to: query.to, level: query.level, series };
  }
}
