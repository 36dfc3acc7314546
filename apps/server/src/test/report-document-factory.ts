import type { ReportLanguage } from '@adpilot/contracts';
import type { ReportDay, ReportDocument, ReportFigures, ReportRow } from '../modules/reports/report-document.ts';

function figures(spend: number, results: number, revenue: number): ReportFigures {
  return {
    spend,
    results,
    cpa: results > 0 ? spend / results : null,
    roas: spend > 0 ? revenue / spend : null,
  };
}

/** A campaign or account row whose numbers follow from its index, so every row differs and the totals add up. */
export function buildReportRow(name: string, index: number): ReportRow {
  const spend = 12_500 - index * 310.25;
  const results = Math.max(0, 84 - index * 3);
  return {
    name,
    current: figures(spend, results, spend * (2.4 - index * 0.05)),
    previous: figures(spend * 0.9, Math.max(0, results - 6), spend * 2.1),
  };
}

function buildDays(start: string, count: number): ReportDay[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(first + index * 86_400_000).toISOString().slice(0, 10),
    spend: 9_000 + ((index * 3_713) % 7_000),
    results: 40 + ((index * 17) % 35),
    actions: index % 3 === 1 ? 1 + (index % 4) : 0,
  }));
}

const NAMES: Record<ReportLanguage, { workspace: string; account: string; campaign: (n: number) => string }> = {
  en: {
    workspace: 'Northwind Coffee',
    account: 'Northwind Coffee — Bangkok',
    campaign: (n) => `Spring sale ${n} — conversions`,
  },
  th: {
    workspace: 'ร้านกาแฟนอร์ทวินด์',
    account: 'ร้านกาแฟนอร์ทวินด์ สาขากรุงเทพ',
    campaign: (n) => `โปรโมชันหน้าร้อน ${n} — ยอดขาย`,
  },
};

/** A report of one THB account with `campaigns` campaigns over a month, in `language`. */
export function buildReportDocument(overrides: Partial<ReportDocument> & { campaigns?: number } = {}): ReportDocument {
  const { campaigns = 6, ...rest } = overrides;
  const language = rest.language ?? 'en';
  const names = NAMES[language];
  return {
    language,
    workspaceName: names.workspace,
    frequency: 'monthly',
    period: { start: '2026-03-01', end: '2026-03-31' },
    previous: { start: '2026-02-01', end: '2026-02-28' },
    accounts: [
      {
        name: names.account,
        currency: 'THB',
        timeZone: 'Asia/Bangkok',
        totals: buildReportRow(names.account, 0),
        campaigns: Array.from({ length: campaigns }, (_, index) => buildReportRow(names.campaign(index + 1), index)),
      },
    ],
    chart: [{ currency: 'THB', days: buildDays('2026-03-01', 31) }],
    rules: {
      actionsApplied: 14,
      paused: 5,
      budgetChanges: 9,
      proposalsWaiting: 2,
      perCurrency: [{ currency: 'THB', spendAvoided: 8_420.5, budgetRaised: 3_000, budgetLowered: 1_250 }],
    },
    generatedAt: '2026-04-01T01:00:00.000Z',
    ...rest,
  };
}
