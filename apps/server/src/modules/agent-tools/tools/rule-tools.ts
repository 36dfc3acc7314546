import {
  backtestRequestSchema,
  createRuleRequestSchema,
  draftRuleRequestSchema,
  ruleImpactQuerySchema,
  type EntityDecision,
  type Rule,
} from '@adpilot/contracts';
import { z } from 'zod';
import type { AiService } from '../../ai/index.ts';
import type { RulePreviewService, RulesService, RuleImpactService } from '../../rules/index.ts';
import { defineTool, pageInput, pageOf, readOnly, ToolError, type ToolDefinition } from '../../../lib/tool-registry.ts';

export interface RuleToolServices {
  rules: Pick<RulesService, 'list' | 'get' | 'create'>;
  preview: Pick<RulePreviewService, 'previewSaved' | 'previewBody' | 'backtest'>;
  impact: Pick<RuleImpactService, 'impact'>;
  ai: Pick<AiService, 'draftRule'>;
}

const ruleId = z.uuid().describe('The rule’s id (from list_rules)');

/** A rule in a list: what it watches and does, without its whole definition (get_rule has that). */
function ruleSummary(rule: Rule) {
  return {
    id: rule.id,
    name: rule.name,
    isActive: rule.isActive,
    mode: rule.mode,
    level: rule.scope.level,
    adAccountIds: rule.scope.adAccountIds,
    actions: rule.actions.map((action) => action.type),
    schedule: rule.schedule,
    lastTriggered: rule.lastTriggered,
    warnings: rule.warnings.length,
  };
}

/** One entity of a preview: what the rule read and what it would do, without the full condition trace. */
function decisionSummary(decision: EntityDecision) {
  return {
    entity: { ...decision.entity },
    matched: decision.matched,
    decision: decision.explanation.decision,
    values: decision.values.map(({ metric, window, value }) => ({ metric, window, value })),
    actions: decision.actions,
  };
}

const MATCHED_SHOWN = 25;

/** The rules' read tools: what rules there are, what one would do, did, and earned. */
export function ruleTools(services: RuleToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_rules',
      title: 'List rules',
      description: 'The workspace’s automation rules: what each watches, does and when it last acted, a page at a time',
      scope: 'read',
      input: z.strictObject({ ...pageInput }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const { page, nextCursor, total } = pageOf(await services.rules.list(scope), input.limit, input.cursor);
        return { rules: page.map(ruleSummary), total, nextCursor };
      },
    }),
    defineTool({
      name: 'get_rule',
      title: 'Get a rule',
      description: 'One rule in full: scope, conditions, actions, schedule, safeguards, mode and warnings',
      scope: 'read',
      input: z.strictObject({ ruleId }),
      annotations: readOnly,
      run: async ({ scope }, input) => ({ rule: await services.rules.get(scope, input.ruleId) }),
    }),
    defineTool({
      name: 'preview_rule',
      title: 'Preview a rule',
      description:
        'What a saved rule (ruleId) or a draft rule body (rule) would do now on the synced data; changes nothing',
      scope: 'read',
      input: z
        .strictObject({
          ruleId: ruleId.optional(),
          rule: createRuleRequestSchema.optional().describe('A whole rule body, as create_rule takes it'),
        })
        .refine((input) => (input.ruleId === undefined) !== (input.rule === undefined), {
          message: 'Give either ruleId or rule',
        }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const preview = input.ruleId
          ? await services.preview.previewSaved(scope, input.ruleId)
          : await services.preview.previewBody(scope, input.rule!);
        const matched = preview.entities.filter((entity) => entity.matched);
        return {
          evaluatedAt: preview.evaluatedAt,
          totals: preview.totals,
          warnings: preview.warnings,
          matched: matched.slice(0, MATCHED_SHOWN).map(decisionSummary),
          matchedNotShown: Math.max(0, matched.length - MATCHED_SHOWN),
        };
      },
    }),
    defineTool({
      name: 'backtest_rule',
      title: 'Backtest a rule',
      description: 'Replays a saved rule over the past days of synced data: what it would have changed, day by day',
      scope: 'read',
      input: z.strictObject({ ruleId, days: backtestRequestSchema.shape.days.describe('Days to replay') }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const backtest = await services.preview.backtest(scope, input.ruleId, input.days);
        return {
          from: backtest.from,
          to: backtest.to,
          totals: backtest.totals,
          days: backtest.days.map((day) => ({
            date: day.date,
            evaluated: day.evaluated,
            matched: day.matched,
            firings: day.firings.length,
            budgets: day.budgets,
          })),
        };
      },
    }),
    defineTool({
      name: 'rule_impact',
      title: 'Rule impact',
      description:
        'What a rule’s applied actions did: spend, results, CPA and ROAS before and after each, and the totals',
      scope: 'read',
      input: z.strictObject({ ruleId, from: ruleImpactQuerySchema.shape.from, to: ruleImpactQuerySchema.shape.to }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const query = ruleImpactQuerySchema.safeParse({ from: input.from, to: input.to });
        if (!query.success) throw new ToolError('invalid_range', query.error.issues.map((i) => i.message).join('; '));
        const impact = await services.impact.impact(scope, input.ruleId, query.data);
        return {
          from: impact.from,
          to: impact.to,
          totals: impact.totals,
          actions: impact.actions.slice(0, MATCHED_SHOWN),
          actionsNotShown: Math.max(0, impact.actions.length - MATCHED_SHOWN),
          daily: impact.daily,
        };
      },
    }),
  ];
}

/** Drafting and saving a rule: the draft is never saved by itself, and a saved rule only ever proposes. */
export function ruleDraftingTools(services: RuleToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'draft_rule',
      title: 'Draft a rule',
      description:
        'Turns a sentence (English or Thai) into a rule body, switched off and not saved; counts as one AI request',
      scope: 'read',
      input: draftRuleRequestSchema,
      annotations: { ...readOnly, idempotentHint: false },
      run: async ({ scope }, input) => ({ draft: await services.ai.draftRule(scope, input.prompt) }),
    }),
    defineTool({
      name: 'create_rule',
      title: 'Create a rule',
      description:
        'Saves a rule in approve mode: each change it plans waits in the Inbox for a person; it never writes by itself',
      scope: 'write',
      input: z.strictObject({
        rule: createRuleRequestSchema.describe('A whole rule body; its mode is always approve'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ scope }, input) => {
        const rule = await services.rules.create(scope, { ...input.rule, mode: 'approve' });
        return { rule, note: 'Saved in approve mode: its changes wait in the Inbox for a person to approve' };
      },
    }),
  ];
}
