import type { ReportLanguage } from '@adpilot/contracts';
import type { ReportDay, ReportDocument, ReportFigures } from '../modules/reports/report-document.ts';

interface Raw {
  spend: number;
  results: number;
  revenue: number;
}

function figures({ spend, results, revenue }: Raw): ReportFigures {
  return {
    spend,
    results,
    cpa: results > 0 ? spend / results : null,
    roas: spend > 0 ? revenue / spend : null,
  };
}

/** A campaign's raw numbers, following from its index so that every campaign differs (and the later ones falter). */
function campaignRaw(index: number, period: 'current' | 'previous'): Raw {
  const spend = Math.round((4_200 - index * 95.5 + (index % 3) * 310) * 100) / 100;
  const results = Math.max(0, 52 - index * 2 + (index % 4) * 3 - (period === 'previous' ? 5 - (index % 7) : 0));
  const scale = period === 'previous' ? 0.88 + (index % 5) * 0.05 : 1;
  const roas = period === 'previous' ? 2.8 - index * 0.04 + (index % 3) * 0.15 : 3.1 - index * 0.07;
  return { spend: spend * scale, results, revenue: spend * scale * roas };
}

function sum(raws: Raw[]): Raw {
  return raws.reduce(
    (total, raw) => ({
      spend: total.spend + raw.spend,
      results: total.results + raw.results,
      revenue: total.revenue + raw.revenue,
    }),
    { spend: 0, results: 0, revenue: 0 },
  );
}

/** The period's days around the given totals' daily average; every third day the rules acted. */
function buildDays(start: string, count: number, total: Raw): ReportDay[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => {
    const swing = 0.7 + ((index * 37) % 60) / 100;
    return {
      date: new Date(first + index * 86_400_000).toISOString().slice(0, 10),
      spend: Math.round((total.spend / count) * swing * 100) / 100,
      results: Math.round((total.results / count) * (1.6 - swing + 0.3)),
      actions: index % 3 === 1 ? 1 + (index % 4) : 0,
    };
  });
}

const NAMES: Record<ReportLanguage, { workspace: string; account: string; campaigns: string[] }> = {
  en: {
    workspace: 'Northwind Coffee',
    account: 'Northwind Coffee — Bangkok',
    campaigns: [
      'Iced latte launch',
      'Weekend brunch',
      'Retargeting — site visitors',
      'Loyalty app installs',
      'Catering leads',
      'Holiday gift cards',
    ],
  },
  th: {
    workspace: 'ร้านกาแฟนอร์ทวินด์',
    account: 'ร้านกาแฟนอร์ทวินด์ สาขากรุงเทพ',
    campaigns: ['เปิดตัวลาเต้เย็น', 'บรันช์วันหยุด', 'รีทาร์เก็ต — ผู้เข้าชมเว็บ', 'ติดตั้งแอปสะสมแต้ม', 'ลูกค้าจัดเลี้ยง', 'บัตรของขวัญปีใหม่'],
  },
};

/** The nth campaign's name (from 0): the list's names, then the same with a round number. */
function campaignName(names: string[], index: number): string {
  const round = Math.floor(index / names.length);
  return round === 0 ? names[index]! : `${names[index % names.length]!} ${round + 1}`;
}

/** A report of one THB account with `campaigns` campaigns over a month, in `language`. */
export function buildReportDocument(overrides: Partial<ReportDocument> & { campaigns?: number } = {}): ReportDocument {
  const { campaigns = 6, ...rest } = overrides;
  const language = rest.language ?? 'en';
  const names = NAMES[language];
  const current = Array.from({ length: campaigns }, (_, index) => campaignRaw(index, 'current'));
  const previous = Array.from({ length: campaigns }, (_, index) => campaignRaw(index, 'previous'));
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
        totals: {
          name: names.account,
          current: figures(sum(current)),
          previous: figures(sum(previous)),
        },
        campaigns: current.map((raw, index) => ({
          name: campaignName(names.campaigns, index),
          current: figures(raw),
          previous: figures(previous[index]!),
        })),
      },
    ],
    chart: [{ currency: 'THB', days: buildDays('2026-03-01', 31, sum(current)) }],
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
