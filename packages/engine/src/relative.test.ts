import { describeCondition, type RuleCondition, type RuleWindow } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { backtestRule } from './backtest.ts';
import { compileRule, evaluateRule, type EngineRule } from './evaluate.ts';
import { buildSnapshot } from './snapshot.ts';
import { NOW, buildAccount, buildEntity, buildRow, buildRule } from '../test/fixtures.ts';
import type { EngineDailyRow, EngineEntity } from './types.ts';

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const account = buildAccount();

/** Two campaigns of three ads each, one ad set per campaign. */
function world(): EngineEntity[] {
  const entities: EngineEntity[] = [];
  for (const c of [1, 2]) {
    entities.push(
      buildEntity({
        level: 'campaign',
        externalId: `c-${c}`,
        name: `Campaign ${c}`,
        campaignExternalId: null,
        adsetExternalId: null,
      }),
      buildEntity({
        level: 'adset',
        externalId: `s-${c}`,
        name: `Ad set ${c}`,
        campaignExternalId: `c-${c}`,
        adsetExternalId: null,
        dailyBudgetMinor: 100_000,
      }),
    );
    for (const a of [1, 2, 3]) {
      entities.push(
        buildEntity({
          externalId: `ad-${c}-${a}`,
          name: `Ad ${c}.${a}`,
          campaignExternalId: `c-${c}`,
          adsetExternalId: `s-${c}`,
        }),
      );
    }
  }
  return entities;
}

/** 65 days of random figures per ad (some days empty), and each campaign's rows as the sum of its ads'. */
function rows(seed: number): EngineDailyRow[] {
  const next = random(seed);
  const ads: EngineDailyRow[] = [];
  for (const entity of world().filter((e) => e.level === 'ad')) {
    for (let ago = 0; ago <= 64; ago++) {
      if (next() < 0.1) continue;
      const impressions = Math.floor(next() * 5_000);
      const clicks = Math.floor(impressions * next() * 0.04);
      ads.push(
        buildRow(ago, {
          entityExternalId: entity.externalId,
          spend: Math.round(next() * 80_000) / 100,
          impressions,
          reach: Math.floor(impressions * (0.4 + next() * 0.5)),
          clicks,
          linkClicks: Math.floor(clicks * 0.8),
          conversions: Math.floor(next() * 6),
          conversionValue: Math.round(next() * 300_000) / 100,
        }),
      );
    }
  }
  const campaigns = new Map<string, EngineDailyRow>();
  for (const row of ads) {
    const campaign = `c-${row.entityExternalId.split('-')[1]}`;
    const key = `${campaign}|${row.date}`;
    const sum = campaigns.get(key) ?? {
      ...row,
      entityExternalId: campaign,
      spend: 0,
      impressions: 0,
      reach: 0,
      clicks: 0,
      linkClicks: 0,
      conversions: 0,
      conversionValue: 0,
    };
    for (const field of [
      'spend',
      'impressions',
      'reach',
      'clicks',
      'linkClicks',
      'conversions',
      'conversionValue',
    ] as const)
      sum[field] += row[field];
    campaigns.set(key, sum);
  }
  return [...ads, ...campaigns.values()];
}

// ---- The independent computation: sums of rows by date, days counted back from the account's today. ----

const DAYS: Record<Exclude<RuleWindow, 'lifetime'>, number> = {
  today: 1,
  yesterday: 1,
  last_3d: 3,
  last_7d: 7,
  last_14d: 14,
  last_30d: 30,
};

function range(window: Exclude<RuleWindow, 'lifetime'>, includeToday: boolean): [number, number] {
  if (window === 'today') return [0, 0];
  if (window === 'yesterday') return [1, 1];
  const n = DAYS[window];
  return includeToday ? [0, n - 1] : [1, n];
}

const TODAY = Date.parse(buildRow(0).date);
const agoCache = new Map<string, number>();
function dayOf(date: string): number {
  let ago = agoCache.get(date);
  if (ago === undefined) agoCache.set(date, (ago = (TODAY - Date.parse(date)) / 86_400_000));
  return ago;
}

function metricOver(all: EngineDailyRow[], id: string, metric: string, [first, last]: [number, number]): number | null {
  const s = { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 };
  for (const row of all) {
    const ago = dayOf(row.date);
    if (row.entityExternalId !== id || ago < first || ago > last) continue;
    for (const key of Object.keys(s) as (keyof typeof s)[]) s[key] += row[key];
  }
  const ratio = (a: number, b: number, k = 1) => (b === 0 ? null : (a / b) * k);
  switch (metric) {
    case 'spend':
      return s.spend;
    case 'cpa':
      return ratio(s.spend, s.conversions);
    case 'ctr':
      return ratio(s.clicks, s.impressions, 100);
    case 'cpm':
      return ratio(s.spend, s.impressions, 1000);
    case 'roas':
      return ratio(s.conversionValue, s.spend);
    default:
      throw new Error(metric);
  }
}

function holds(operator: RuleCondition['operator'], value: number, low: number, high = 0): boolean {
  const eps = 1e-9 * Math.max(1, Math.abs(value), Math.abs(low));
  if (operator === 'gt') return value > low + eps;
  if (operator === 'lt') return value < low - eps;
  if (operator === 'gte') return value >= low - eps;
  if (operator === 'lte') return value <= low + eps;
  if (operator === 'between') return value >= low - eps && value <= high + eps;
  throw new Error(operator);
}

function matched(rule: EngineRule, all: EngineDailyRow[], now = NOW): string[] {
  const snapshot = buildSnapshot({ accounts: [account], entities: world(), rows: all, now });
  return evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' })
    .decisions.filter((d) => d.matched)
    .map((d) => d.entity.externalId)
    .sort();
}

const AD_IDS = world()
  .filter((e) => e.level === 'ad')
  .map((e) => e.externalId);
const METRICS = ['spend', 'cpa', 'ctr', 'cpm', 'roas'] as const;
const WINDOWS = ['today', 'yesterday', 'last_3d', 'last_7d', 'last_14d', 'last_30d'] as const;
const OPERATORS = ['gt', 'lt', 'gte', 'lte'] as const;
// Settle hours 0: today's figures count at once, so the comparison reads exactly the windows above.
const noSettle = { cooldownHours: 0, maxActionsPerDay: 100, minSpend: 0, minImpressions: 0, settleHours: 0 };

describe('against the previous period of equal length', () => {
  it('matches exactly the ads an independent computation over the rows picks (80 random cases)', () => {
    const next = random(42);
    let matchedSome = 0;
    for (let trial = 0; trial < 80; trial++) {
      const all = rows(1000 + trial);
      const metric = METRICS[Math.floor(next() * METRICS.length)]!;
      const window = WINDOWS[Math.floor(next() * WINDOWS.length)]!;
      const includeToday = next() < 0.5;
      const operator = OPERATORS[Math.floor(next() * OPERATORS.length)]!;
      const value = Math.round((next() - 0.5) * 120);
      const rule = buildRule({
        conditions: {
          match: 'all',
          items: [{ metric, operator, value, window, includeToday, compare: 'previous_period' }],
        },
        actions: [{ type: 'notify' }],
        safeguards: noSettle,
      });
      const [first, last] = range(window, includeToday);
      const span = last - first + 1;
      const expected = AD_IDS.filter((id) => {
        const now = metricOver(all, id, metric, [first, last]);
        const before = metricOver(all, id, metric, [first + span, last + span]);
        if (now === null || before === null || before === 0) return false;
        return holds(operator, ((now - before) / Math.abs(before)) * 100, value);
      }).sort();
      expect(
        matched(rule, all),
        `trial ${trial}: ${metric} ${operator} ${value} % over ${window}${includeToday ? '+today' : ''}`,
      ).toEqual(expected);
      if (expected.length > 0 && expected.length < AD_IDS.length) matchedSome++;
    }
    // The cases discriminate: many pick some ads and leave others.
    expect(matchedSome).toBeGreaterThan(15);
  });

  it('explains itself in the preview: "CPA … is 612 vs 402 the 7 days before: +52 %"', () => {
    const all = [
      ...[1, 2, 3, 4, 5, 6, 7].map((ago) =>
        buildRow(ago, { entityExternalId: 'ad-1-1', spend: ago === 1 ? 612 : 0, conversions: ago === 1 ? 1 : 0 }),
      ),
      buildRow(8, { entityExternalId: 'ad-1-1', spend: 804, conversions: 2 }),
    ];
    const rule = buildRule({
      conditions: {
        match: 'all',
        items: [{ metric: 'cpa', operator: 'gt', value: 50, window: 'last_7d', compare: 'previous_period' }],
      },
      safeguards: noSettle,
    });
    const snapshot = buildSnapshot({ accounts: [account], entities: world(), rows: all, now: NOW });
    const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions.find(
      (d) => d.entity.externalId === 'ad-1-1',
    )!;
    expect(decision.matched).toBe(true);
    const trace = decision.explanation.conditions!.items[0]!;
    expect(trace).toMatchObject({
      value: expect.closeTo(52.24, 2),
      compareTo: 50,
      relative: { compare: 'previous_period', current: 612, reference: 402 },
      result: 'held',
    });
    expect(describeCondition(trace as never)).toBe(
      'CPA over the last 7 days is 612 vs 402 the 7 days before: +52 %, > +50 %: held',
    );
  });

  it('has no value when the previous period is 0 or undefined, and waits while today settles', () => {
    const all = [buildRow(1, { entityExternalId: 'ad-1-1', spend: 100 })];
    const rule = (settleHours: number, window: RuleWindow) =>
      buildRule({
        conditions: {
          match: 'all',
          items: [{ metric: 'spend', operator: 'gt', value: -1000, window, compare: 'previous_period' }],
        },
        safeguards: { ...noSettle, settleHours },
      });
    const snapshot = buildSnapshot({ accounts: [account], entities: world(), rows: all, now: NOW });
    const of = (r: EngineRule) =>
      evaluateRule(compileRule(r), snapshot, [], { explain: 'all' }).decisions.find(
        (d) => d.entity.externalId === 'ad-1-1',
      )!;
    // Yesterday 100, the day before 0: no percentage exists.
    expect(of(rule(0, 'yesterday')).explanation.conditions!.items[0]).toMatchObject({
      value: null,
      result: 'undefined',
    });
    expect(of(rule(0, 'yesterday')).matched).toBe(false);
    // 10:00 in Bangkok with 12 settle hours: today cannot be judged yet.
    expect(of(rule(12, 'today')).explanation.conditions!.items[0]).toMatchObject({ result: 'settling' });
  });

  it('is backtested: each replayed day matches what the rows say on that day', () => {
    const all = rows(7);
    const rule = buildRule({
      conditions: {
        match: 'all',
        items: [{ metric: 'spend', operator: 'gt', value: 10, window: 'last_3d', compare: 'previous_period' }],
      },
      actions: [{ type: 'notify' }],
      safeguards: noSettle,
    });
    const replay = backtestRule(rule, { accounts: [account], entities: world(), rows: all, now: NOW, days: 14 });
    expect(replay.days).toHaveLength(14);
    replay.days.forEach((day, index) => {
      const back = 14 - index;
      const expected = AD_IDS.filter((id) => {
        const now = metricOver(all, id, 'spend', [back + 1, back + 3]);
        const before = metricOver(all, id, 'spend', [back + 4, back + 6]);
        return now !== null && before !== null && before !== 0 && ((now - before) / before) * 100 > 10 + 1e-9;
      });
      expect(day.matched, day.date).toBe(expected.length);
    });
    expect(replay.days.some((day) => day.matched > 0)).toBe(true);
  });
});

describe('against the account or the parent campaign over the same window', () => {
  it('matches exactly the ads an independent computation picks (50 random cases)', () => {
    const next = random(7);
    for (let trial = 0; trial < 50; trial++) {
      const all = rows(5000 + trial);
      const metric = METRICS[Math.floor(next() * METRICS.length)]!;
      const window = WINDOWS[Math.floor(next() * WINDOWS.length)]!;
      const includeToday = next() < 0.5;
      const operator = OPERATORS[Math.floor(next() * OPERATORS.length)]!;
      const compare = next() < 0.5 ? ('account' as const) : ('campaign' as const);
      const factor = Math.round((0.3 + next() * 1.7) * 100) / 100;
      const rule = buildRule({
        conditions: { match: 'all', items: [{ metric, operator, factor, window, includeToday, compare }] },
        actions: [{ type: 'notify' }],
        safeguards: noSettle,
      });
      const span = range(window, includeToday);
      const expected = AD_IDS.filter((id) => {
        const value = metricOver(all, id, metric, span);
        const campaign = `c-${id.split('-')[1]}`;
        const reference =
          compare === 'campaign'
            ? metricOver(all, campaign, metric, span)
            : metricOver(
                all.filter((r) => r.entityExternalId.startsWith('c-')).map((r) => ({ ...r, entityExternalId: 'acct' })),
                'acct',
                metric,
                span,
              );
        if (value === null || reference === null) return false;
        return holds(operator, value, reference * factor);
      }).sort();
      expect(matched(rule, all), `trial ${trial}: ${metric} ${operator} ${factor} × ${compare} over ${window}`).toEqual(
        expected,
      );
    }
  });

  it('explains the reference: "…is 612, > 1.5 × the account\'s 402 (603): held"', () => {
    const all = [
      buildRow(1, { entityExternalId: 'ad-1-1', spend: 612, conversions: 1 }),
      buildRow(1, { entityExternalId: 'c-1', spend: 612, conversions: 1 }),
      buildRow(1, { entityExternalId: 'c-2', spend: 1398, conversions: 4 }),
    ];
    const rule = buildRule({
      conditions: {
        match: 'all',
        items: [{ metric: 'cpa', operator: 'gt', factor: 1.5, window: 'yesterday', compare: 'account' }],
      },
      safeguards: noSettle,
    });
    const snapshot = buildSnapshot({ accounts: [account], entities: world(), rows: all, now: NOW });
    const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions.find(
      (d) => d.entity.externalId === 'ad-1-1',
    )!;
    const trace = decision.explanation.conditions!.items[0]!;
    expect(trace).toMatchObject({
      value: 612,
      compareTo: 603,
      relative: { compare: 'account', current: 612, reference: 402, factor: 1.5 },
    });
    expect(describeCondition(trace as never)).toBe("CPA yesterday is 612, > 1.50 × the account's 402 (603): held");
  });
});
