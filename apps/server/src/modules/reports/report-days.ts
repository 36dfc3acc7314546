import { addDays, type OverviewCurrency } from '@adpilot/contracts';

/** Money rounded for the answer (sums of numeric(18,4) come back long). */
export const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Every local date from…to, both included. */
export function dates(from: string, to: string): string[] {
  const all: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) all.push(day);
  return all;
}

/**
 * The days of a range per currency (never summed across): each account's spend and results added to its currency's
 * day, each applied rule action counted on its local day; the one that spent most first. A currency's days begin at
 * the first day any of its accounts has data: the days before are not zeros but unknown, so they are left out (ADR
 * 0104), and a currency with no data yet has none. The dashboard's overview and a scheduled report's chart read it.
 */
export function currencyDays(
  range: readonly string[],
  accounts: readonly { id: string; currency: string; firstDataDay: string | null }[],
  rows: readonly { adAccountId: string; date: string; spend: number; conversions: number }[],
  actions: readonly { currency: string; localDate: string }[],
): OverviewCurrency[] {
  const currencyOf = new Map(accounts.map((account) => [account.id, account.currency]));
  const byCurrency = new Map<string, Map<string, { spend: number; results: number; actions: number }>>();
  const dayOf = (currency: string, date: string) => {
    let days = byCurrency.get(currency);
    if (!days)
      byCurrency.set(currency, (days = new Map(range.map((day) => [day, { spend: 0, results: 0, actions: 0 }]))));
    return days.get(date);
  };
  for (const account of accounts) dayOf(account.currency, range[0] ?? '');
  for (const row of rows) {
    const day = dayOf(currencyOf.get(row.adAccountId) ?? '', row.date);
    if (!day) continue;
    day.spend += row.spend;
    day.results += row.conversions;
  }
  for (const action of actions) {
    const day = dayOf(action.currency, action.localDate);
    if (day) day.actions += 1;
  }
  const firstOf = new Map<string, string>();
  for (const { currency, firstDataDay } of accounts) {
    const known = firstOf.get(currency);
    if (firstDataDay !== null && (known === undefined || firstDataDay < known)) firstOf.set(currency, firstDataDay);
  }
  const currencies: OverviewCurrency[] = [...byCurrency].map(([currency, days]) => {
    const first = firstOf.get(currency);
    const known = [...days].filter(([date]) => first !== undefined && date >= first);
    const list = known.map(([date, day]) => ({
      date,
      spend: round(day.spend),
      results: round(day.results),
      actions: day.actions,
    }));
    const totals = list.reduce(
      (sum, day) => ({
        spend: sum.spend + day.spend,
        results: sum.results + day.results,
        actions: sum.actions + day.actions,
      }),
      { spend: 0, results: 0, actions: 0 },
    );
    return { currency, days: list, totals: { ...totals, spend: round(totals.spend), results: round(totals.results) } };
  });
  currencies.sort((a, b) => b.totals.spend - a.totals.spend || a.currency.localeCompare(b.currency));
  return currencies;
}
