import { RULE_METRICS, RULE_OPERATORS, RULE_WINDOWS, createRuleRequestSchema } from '@adpilot/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule, type EngineRule } from './evaluate.ts';
import { buildSnapshot } from './snapshot.ts';
import { BANGKOK, NOW, buildAccount, buildRow, buildRule, buildTree, cond } from '../test/fixtures.ts';
import type { LedgerEntry } from './types.ts';

const HOUR = 3_600_000;
const always = { match: 'all' as const, items: [cond('spend', 'gte', 0)] };

/** Budgets and bounds in major units, 1 to 100,000; currencies with and without minor units. */
const money = fc.double({ min: 1, max: 100_000, noNaN: true });
const budgetCase = fc.record({
  currency: fc.constantFrom('THB', 'USD', 'JPY'),
  currentMajor: money,
  minimumMajor: fc.option(fc.double({ min: 1, max: 500, noNaN: true }), { nil: null }),
  type: fc.constantFrom('increase_budget', 'decrease_budget'),
  unit: fc.constantFrom('percent', 'amount'),
  by: fc.double({ min: 0.01, max: 99, noNaN: true }),
  floor: fc.option(money, { nil: undefined }),
  ceiling: fc.option(money, { nil: undefined }),
});

describe('properties', () => {
  it('a planned budget never leaves [floor, ceiling] nor goes under the account minimum', () => {
    fc.assert(
      fc.property(budgetCase, (c) => {
        const floor = c.floor !== undefined && c.ceiling !== undefined ? Math.min(c.floor, c.ceiling) : c.floor;
        const offset = c.currency === 'JPY' ? 1 : 100;
        const account = buildAccount({
          currency: c.currency,
          minDailyBudgetMinor: c.minimumMajor === null ? null : Math.round(c.minimumMajor * offset),
        });
        const entities = buildTree({ adset: { dailyBudgetMinor: Math.max(1, Math.round(c.currentMajor * offset)) } });
        const rule = buildRule({
          conditions: always,
          scope: { level: 'adset' },
          actions: [{ type: c.type, by: c.by, unit: c.unit, floor, ceiling: c.ceiling }],
        });
        const snapshot = buildSnapshot({ accounts: [account], entities, rows: [], now: NOW });
        const plan = evaluateRule(compileRule(rule), snapshot, []).decisions[0]!.actions[0]!;
        if (plan.change?.field !== 'daily_budget') return;
        const to = plan.change.toMinor;
        expect(Number.isInteger(to)).toBe(true);
        if (c.ceiling !== undefined) expect(to).toBeLessThanOrEqual(c.ceiling * offset + 1e-6);
        if (floor !== undefined) expect(to).toBeGreaterThanOrEqual(floor * offset - 1e-6);
        if (account.minDailyBudgetMinor !== null) expect(to).toBeGreaterThanOrEqual(account.minDailyBudgetMinor);
        if (c.type === 'increase_budget') expect(to).toBeGreaterThan(plan.change.fromMinor);
        else expect(to).toBeLessThan(plan.change.fromMinor);
      }),
      { numRuns: 2_000 },
    );
  });

  it('no action is planned inside a cooldown', () => {
    const ledgerEntry = (rule: EngineRule) =>
      fc.record({
        ruleId: fc.constantFrom(rule.id, 'another-rule'),
        adAccountId: fc.constant(BANGKOK),
        targetExternalId: fc.constantFrom('ad-1', 's-1', 'c-1'),
        type: fc.constantFrom('pause', 'notify', 'resume'),
        at: fc.integer({ min: NOW - 100 * HOUR, max: NOW }),
      }) as fc.Arbitrary<LedgerEntry>;
    const scenario = fc.integer({ min: 0, max: 72 }).chain((cooldownHours) => {
      const rule = buildRule({
        conditions: always,
        actions: [{ type: 'pause' }, { type: 'notify' }],
        safeguards: { cooldownHours, maxActionsPerDay: 10_000 },
      });
      return fc.tuple(fc.constant(rule), fc.array(ledgerEntry(rule), { maxLength: 12 }));
    });
    fc.assert(
      fc.property(scenario, ([rule, ledger]) => {
        const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: buildTree(), rows: [], now: NOW });
        for (const decision of evaluateRule(compileRule(rule), snapshot, ledger).decisions) {
          for (const plan of decision.actions) {
            if (plan.outcome !== 'planned') continue;
            const inCooldown = ledger.some(
              (entry) =>
                entry.ruleId === rule.id &&
                entry.targetExternalId === plan.target.externalId &&
                entry.type === plan.type &&
                NOW - entry.at < rule.safeguards.cooldownHours * HOUR,
            );
            expect(inCooldown).toBe(false);
          }
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('an undefined metric never matches, whatever the operator, window or threshold', () => {
    const condition = fc.record({
      metric: fc.constantFrom(...RULE_METRICS),
      operator: fc.constantFrom(...RULE_OPERATORS),
      window: fc.constantFrom(...RULE_WINDOWS),
      includeToday: fc.boolean(),
      low: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      width: fc.double({ min: 0, max: 1e6, noNaN: true }),
    });
    // No delivery, no budget, no creation time: every metric that needs a denominator or a state is undefined.
    const entities = buildTree({ adset: { dailyBudgetMinor: null }, ad: { createdTime: null } });
    const rows = [buildRow(0, { spend: 50 }), buildRow(3, { impressions: 0 })];
    fc.assert(
      fc.property(condition, (c) => {
        const value = c.operator === 'between' ? [c.low, c.low + c.width] : c.low;
        const rule: EngineRule = {
          ...createRuleRequestSchema.parse({
            name: 'p',
            scope: { level: 'ad' },
            conditions: {
              match: 'all',
              items: [{ ...cond(c.metric, c.operator, value as never, c.window, c.includeToday) }],
            },
            actions: [{ type: 'pause' }],
            schedule: { everyMinutes: 5 },
          }),
          id: 'property',
        };
        const snapshot = buildSnapshot({ accounts: [buildAccount()], entities, rows, now: NOW });
        const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions[0]!;
        const trace = decision.explanation.conditions!.items[0]!;
        if (trace.kind === 'condition' && trace.value === null) {
          expect(decision.matched).toBe(false);
          expect(trace.result).toBe('undefined');
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
