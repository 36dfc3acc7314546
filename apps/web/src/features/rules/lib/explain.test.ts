import type { ConditionTrace } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { changeText, conditionText, skipText, type Words } from './explain.ts';

const words = (language: 'en' | 'th'): Words => ({ t: i18n.getFixedT(language, 'rules'), language });

const previous: ConditionTrace = {
  kind: 'condition',
  path: '0',
  metric: 'cpa',
  window: 'last_7d',
  includeToday: false,
  operator: 'gt',
  value: 52.24,
  compareTo: 50,
  against: null,
  relative: { compare: 'previous_period', current: 612, reference: 402, factor: null },
  result: 'held',
};

const account: ConditionTrace = {
  ...previous,
  window: 'yesterday',
  value: 612,
  compareTo: 603,
  relative: { compare: 'account', current: 612, reference: 402, factor: 1.5 },
};

describe('relative conditions in words', () => {
  it('says the previous period, both figures and the signed change, in English and Thai', () => {
    const en = conditionText(previous, words('en'));
    expect(en).toContain('612 vs 402 the 7 days before: +52%');
    expect(en).toContain('+50%');
    const th = conditionText(previous, words('th'));
    expect(th).toContain('612 เทียบกับ 402 7 วันก่อนหน้า: +52%');
    expect(th).not.toContain('explain.');
  });

  it('says a fall with the locale’s minus sign, and a range of changes', () => {
    const fell = conditionText({ ...previous, value: -18.4, operator: 'between', compareTo: [-30, -10] }, words('en'));
    expect(fell).toMatch(/: [-−]18%, /);
    expect(fell).toMatch(/between [-−]30% and [-−]10%/);
  });

  it('names the account or the campaign, the factor and the figure compared with', () => {
    expect(conditionText(account, words('en'))).toContain("1.5 × the account's 402 (603)");
    const campaign = { ...account, relative: { ...account.relative!, compare: 'campaign' as const } };
    expect(conditionText(campaign, words('en'))).toContain("1.5 × the campaign's 402 (603)");
    expect(conditionText(campaign, words('th'))).toContain('1.5 × ค่าของแคมเปญ 402 (603)');
  });

  it('says "no value" when the previous period had none', () => {
    const none = {
      ...previous,
      value: null,
      relative: { ...previous.relative!, reference: 0 },
      result: 'undefined' as const,
    };
    expect(conditionText(none, words('en'))).toContain('vs 0 the 7 days before: no value');
  });
});

describe('a budget boost in words (ADR 0191)', () => {
  const boost = {
    field: 'budget_schedule' as const,
    budgetField: 'daily_budget' as const,
    from: 40,
    to: 60,
    fromMinor: 4000,
    toMinor: 6000,
    budgetValue: 50,
    budgetValueType: 'MULTIPLIER' as const,
    timeStart: '2026-12-03T23:00:00.000Z',
    timeEnd: '2026-12-04T03:00:00.000Z',
  };

  it('says the budget from → to and its window, in English and Thai', () => {
    const en = changeText(boost, words('en'), 'USD');
    expect(en).toMatch(/^Budget \$40\.00 → \$60\.00 from .+ to .+$/);
    const th = changeText(boost, words('th'), 'USD');
    expect(th).toContain('→');
    expect(th).toContain('ตั้งแต่');
    expect(th).not.toContain('explain.');
  });

  it('names the level holding the budget when an ad set under campaign budget is skipped', () => {
    const skip = { code: 'boost_no_own_budget' as const, params: { level: 'adset', holderLevel: 'campaign' } };
    expect(skipText(skip, words('en'))).toBe(
      "Skipped: a boost needs the entity's own budget, and this one's budget is on its campaign",
    );
    expect(skipText(skip, words('th'))).toContain('แคมเปญ');
  });
});
