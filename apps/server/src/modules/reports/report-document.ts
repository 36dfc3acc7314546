import type { ReportLanguage } from '@adpilot/contracts';

/**
 * What a scheduled report says, gathered once and then written twice: as the e-mail's summary and as the PDF
 * attached to it. Codes and numbers only; the writers word them in the report's language and format them with
 * `Intl` (money in the currency's major units, dates as local calendar dates YYYY-MM-DD).
 */
export interface ReportFigures {
  spend: number;
  results: number;
  /** Null where undefined (no results, or no spend). */
  cpa: number | null;
  roas: number | null;
}

export interface ReportRow {
  /** The account's or the campaign's name as Meta names it. */
  name: string;
  current: ReportFigures;
  previous: ReportFigures;
}

export interface ReportAccountSection {
  name: string;
  /** ISO 4217; amounts of different currencies are never summed. */
  currency: string;
  timeZone: string;
  totals: ReportRow;
  /** Its campaigns, the one that spent most first. */
  campaigns: ReportRow[];
}

export interface ReportDay {
  date: string;
  spend: number;
  results: number;
  /** Rule actions applied that day (marked on the chart). */
  actions: number;
}

export interface ReportDocument {
  language: ReportLanguage;
  workspaceName: string;
  frequency: 'weekly' | 'monthly';
  period: { start: string; end: string };
  previous: { start: string; end: string };
  /** One per ad account covered. */
  accounts: ReportAccountSection[];
  /** The chart: per currency, the period's days summed across its accounts; the currency that spent most first. */
  chart: { currency: string; days: ReportDay[] }[];
  /** What the rules did in the period, per currency of the amounts. */
  rules: {
    actionsApplied: number;
    paused: number;
    budgetChanges: number;
    proposalsWaiting: number;
    perCurrency: { currency: string; spendAvoided: number; budgetRaised: number; budgetLowered: number }[];
  };
  generatedAt: string;
}
