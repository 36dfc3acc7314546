import { describeWarning } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { ruleWarnings, type OtherRule } from './conflicts.ts';
import { BANGKOK, NEW_YORK, buildRule } from '../test/fixtures.ts';

function other(name: string, overrides: Parameters<typeof buildRule>[0]): OtherRule {
  const rule = buildRule({ isActive: true, ...overrides });
  return { id: rule.id, name, rule };
}

describe('rule warnings', () => {
  it('warn about a budget increase without a ceiling', () => {
    const rule = buildRule({
      scope: { level: 'adset' },
      actions: [{ type: 'increase_budget', by: 10, unit: 'percent' }],
    });
    const warnings = ruleWarnings(rule, []);
    expect(warnings).toEqual([{ code: 'budget_increase_without_ceiling', params: { actionIndex: 0 } }]);
    expect(describeWarning(warnings[0]!)).toBe('The budget increase has no ceiling');
    const capped = buildRule({
      scope: { level: 'adset' },
      actions: [{ type: 'increase_budget', by: 10, unit: 'percent', ceiling: 900 }],
    });
    expect(ruleWarnings(capped, [])).toEqual([]);
  });

  it('name an active rule that resumes what this one pauses, on overlapping accounts and names', () => {
    const pause = buildRule({ scope: { level: 'ad', adAccountIds: [BANGKOK] } });
    const resume = other('Revive', { actions: [{ type: 'resume' }], scope: { level: 'ad' } });
    const warnings = ruleWarnings(pause, [resume]);
    expect(warnings).toEqual([
      { code: 'conflicting_rule', params: { ruleId: resume.id, ruleName: 'Revive', conflict: 'pause_resume' } },
    ]);
    expect(describeWarning(warnings[0]!)).toBe(
      'Rule “Revive” touches the same entities: one pauses what the other resumes',
    );
  });

  it('stay quiet for other accounts, disjoint names, other levels, inactive rules and the rule itself', () => {
    const pause = buildRule({ scope: { level: 'ad', adAccountIds: [BANGKOK], nameContains: 'summer' } });
    const resumeWith = (scope: object, isActive = true) =>
      other('r', { actions: [{ type: 'resume' }], scope: { level: 'ad', ...scope }, isActive });
    expect(ruleWarnings(pause, [resumeWith({ adAccountIds: [NEW_YORK] })])).toEqual([]);
    expect(ruleWarnings(pause, [resumeWith({ nameContains: 'winter' })])).toEqual([]);
    expect(ruleWarnings(pause, [resumeWith({ level: 'adset' })])).toEqual([]);
    expect(ruleWarnings(pause, [resumeWith({}, false)])).toEqual([]);
    expect(ruleWarnings(pause, [resumeWith({ nameContains: 'Summer sale' })])).toHaveLength(1);
    expect(
      ruleWarnings(
        pause,
        [{ id: pause.id, name: 'self', rule: { ...pause, actions: [{ type: 'resume' }], isActive: true } }],
        pause.id,
      ),
    ).toEqual([]);
  });

  it('see budget rules at any two levels meet, since an ad set under campaign budget moves its campaign', () => {
    const raise = buildRule({
      scope: { level: 'adset' },
      actions: [{ type: 'increase_budget', by: 10, unit: 'percent', ceiling: 900 }],
    });
    const lower = other('Trim', {
      scope: { level: 'campaign' },
      actions: [{ type: 'decrease_budget', by: 10, unit: 'percent' }],
    });
    const set = other('Reset', { scope: { level: 'adset' }, actions: [{ type: 'set_budget', amount: 100 }] });
    expect(ruleWarnings(raise, [lower, set]).map((warning) => warning.params.conflict)).toEqual([
      'budget_direction',
      'budget_both',
    ]);
  });
});
