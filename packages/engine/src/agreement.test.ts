import { describeExplanation } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule } from './evaluate.ts';
import { EngineInputError, buildSnapshot } from './snapshot.ts';
import { BANGKOK, NOW, buildAccount, buildEntity, buildRow, buildRule, cond } from '../test/fixtures.ts';

const ads = ['ad-1', 'ad-2', 'ad-3', 'ad-4'];
const entities = ads.map((id, n) => buildEntity({ externalId: id, name: id, status: n === 3 ? 'PAUSED' : 'ACTIVE' }));
const rows = ads.map((id, n) => buildRow(0, { entityExternalId: id, spend: 200 * (n + 1), conversions: n % 2 }));

describe('preview and run', () => {
  it('plan the same actions: a run explains only what matched', () => {
    const rule = compileRule(
      buildRule({
        conditions: { match: 'any', items: [cond('spend', 'gt', 500), cond('cpa', 'gt', 150)] },
        safeguards: { maxActionsPerDay: 2 },
      }),
    );
    const snapshot = buildSnapshot({ accounts: [buildAccount()], entities, rows, now: NOW });
    const preview = evaluateRule(rule, snapshot, [], { explain: 'all' });
    const run = evaluateRule(rule, snapshot, [], { explain: 'matched' });
    expect(preview.decisions).toHaveLength(4);
    expect(run.decisions).toEqual(preview.decisions.filter((decision) => decision.matched));
    expect(run.decisions.map((decision) => [decision.entity.externalId, decision.actions[0]!.outcome])).toEqual([
      ['ad-2', 'planned'],
      ['ad-3', 'planned'],
      ['ad-4', 'skipped'],
    ]);
  });
});

describe('inputs', () => {
  it('refuse an unknown time zone rather than evaluate in another one', () => {
    const account = buildAccount({ timezone: 'Mars/Olympus_Mons' });
    expect(() => buildSnapshot({ accounts: [account], entities, rows, now: NOW })).toThrow(EngineInputError);
  });

  it("count the rule's ledger actions on entities outside the snapshot toward its daily limit", () => {
    const rule = buildRule({ safeguards: { maxActionsPerDay: 1 } });
    const elsewhere = {
      ruleId: rule.id,
      adAccountId: BANGKOK,
      targetExternalId: 'gone',
      type: 'pause' as const,
      at: NOW - 60_000,
    };
    const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: [entities[0]!], rows, now: NOW });
    const plan = evaluateRule(compileRule(rule), snapshot, [elsewhere]).decisions[0]!.actions[0]!;
    expect(plan.skip).toEqual({ code: 'max_actions_per_day', params: { limit: 1, count: 1 } });
  });

  it('explain an entity not judged for want of data in words', () => {
    const rule = buildRule({ safeguards: { minSpend: 1_000 } });
    const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: [entities[0]!], rows, now: NOW });
    const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions[0]!;
    expect(describeExplanation(decision.explanation)).toBe('Not judged yet: spend 200 is under the minimum 1000');
  });
});
