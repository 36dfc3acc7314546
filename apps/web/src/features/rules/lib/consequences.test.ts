import type { ActionPlan, RulePreview } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { buildAction, buildPreview, buildRun } from '../test/fixtures.ts';
import { changesText, runOutcomeText } from './consequences.ts';

const words = (language: string) => ({ t: i18n.getFixedT(language, 'rules'), language });

function withActions(plans: Partial<ActionPlan>[]): RulePreview {
  const preview = buildPreview();
  const base = preview.entities[1]!.actions[0]!;
  preview.entities[1]!.actions = plans.map((plan, index) => ({ ...base, actionIndex: index, ...plan }));
  return preview;
}

describe('what a run would change, in numbers', () => {
  it('counts planned actions per verb and object, in the rule’s order, in either language', () => {
    const adset = { ...buildPreview().entities[1]!.entity, level: 'adset' as const };
    const preview = withActions([
      { type: 'pause' },
      { type: 'pause' },
      { type: 'increase_budget', target: adset, change: null },
      { type: 'notify', outcome: 'skipped' },
    ]);
    expect(changesText(preview, words('en'))).toBe('pause 2 ads and raise 1 budget');
    expect(changesText(preview, words('th'))).toBe('หยุดโฆษณา 2 รายการชั่วคราวและเพิ่มงบประมาณ 1 รายการ');
  });

  it('answers null when nothing is planned', () => {
    expect(changesText(withActions([{ outcome: 'skipped' }]), words('en'))).toBeNull();
  });
});

describe('a run in one line', () => {
  it('names the failure of an action when nothing applied and nothing was skipped', () => {
    const run = buildRun('r', (id) => [
      buildAction('r', id, {
        status: 'failed',
        failure: { code: 'live_value_differs', params: {} },
        revertible: false,
      }),
    ]);
    expect(runOutcomeText(run, words('en'))).toMatch(/^3 checked, 1 matched: 1 change failed — .+/);
  });

  it('says nothing more when everything matched was applied', () => {
    const run = buildRun('r', (id) => [buildAction('r', id)]);
    expect(runOutcomeText(run, words('en'))).toBe('3 checked, 1 matched: 1 change applied');
  });
});
