import { RULE_TEMPLATES, type Rule, type RuleTemplate } from '@adpilot/contracts';

export { fail, fakeApi, ok } from '../../../test/fake-api.ts';

let sequence = 0;

export function buildId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

/** A stored rule as GET /api/rules answers it, built from the stop-loss template (two levels of conditions). */
export function buildRule(overrides: Partial<Rule> = {}): Rule {
  const template = RULE_TEMPLATES[0] as RuleTemplate;
  return {
    ...template.rule,
    id: buildId(),
    name: 'Stop loss',
    description: 'Pause ads whose CPA is above 500',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    lastTriggered: null,
    warnings: [],
    ...overrides,
  };
}

export const TEMPLATES: readonly RuleTemplate[] = RULE_TEMPLATES;
