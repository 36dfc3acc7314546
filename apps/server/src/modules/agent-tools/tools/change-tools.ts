import { entityActionItemSchema, type EntityActionItem, type EntityActionResult } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AgentChange, AgentPolicyService } from '../../agents/index.ts';
import type { ManualActionsService, ManualActor, ManualMode } from '../../entities/index.ts';
import { defineTool, ToolError, type ToolContext, type ToolDefinition } from '../../../lib/tool-registry.ts';

export interface ChangeToolServices {
  /** The explorer's manual actions: the only way an agent's change is dry-run, proposed or written (ADR 0145). */
  actions: Pick<ManualActionsService, 'run' | 'campaignsOf' | 'lastAgentChange'>;
  /** The workspace's agent policy and the day's agent changes (ADR 0154). */
  policy: Pick<AgentPolicyService, 'routeChange'>;
  now: () => Date;
}

/** How long after an agent's relative budget change the same call again is taken for its retry. */
export const RETRY_WINDOW_MS = 15 * 60_000;

/** The most changes one `propose_changes` call leaves in the Inbox. */
export const PROPOSE_CHANGES_MAX = 50;

const reasonInput = z
  .string()
  .trim()
  .min(1, 'Say why, from the figures')
  .max(500)
  .describe('Why, from the figures (shown to the person deciding)');

const changes = z
  .array(entityActionItemSchema)
  .min(1)
  .max(PROPOSE_CHANGES_MAX)
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.entityId))
        ctx.addIssue({ code: 'custom', path: [index, 'entityId'], message: 'One change per entity in a call' });
      seen.add(item.entityId);
    });
  })
  .describe(
    'Each change: entityId (from query_entities), type pause | resume | set_budget (amount) | increase_budget / ' +
      'decrease_budget (amount or percent); amounts in the account currency',
  );

const applyInput = z
  .strictObject({ ...entityActionItemSchema.shape, reason: reasonInput })
  .superRefine((input, ctx) => {
    const { entityId, type, amount, percent } = input;
    const checked = entityActionItemSchema.safeParse({ entityId, type, amount, percent });
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

/** The actor of a change: the authenticated credential, acting for its creator; never anything the agent sent. */
function actorOf(context: ToolContext): ManualActor {
  const userId = context.scope.userId;
  if (!context.agent || !userId) throw new ToolError('no_agent', 'Only an agent’s credential may change the account');
  return { type: 'token', credentialId: context.agent.credentialId, name: context.agent.name, userId };
}

/**
 * The request's key: the mode, the changes and the values they start from. The same change from the same value is
 * the same request (repeated or parallel calls find its ledger rows, and Meta is written once); a change after the
 * value moved is a new one.
 */
function keyOf(mode: ManualMode, items: readonly EntityActionItem[], dryRun: readonly EntityActionResult[]): string {
  const from = dryRun.map((result) => [result.entityId, result.field, result.from]);
  return createHash('sha256')
    .update(JSON.stringify([mode, items, from]))
    .digest('hex')
    .slice(0, 48);
}

/** What an agent reads of one change: its outcome, from → to, and the ids to follow it with. */
function presented(result: EntityActionResult) {
  return {
    entityId: result.entityId,
    outcome: result.outcome,
    ...(result.code ? { code: result.code, params: result.params ?? {} } : {}),
    field: result.field,
    from: result.from,
    to: result.to,
    currency: result.currency,
    ...(result.proposalId ? { proposalId: result.proposalId } : {}),
    ...(result.actionId && result.outcome === 'applied' ? { actionId: result.actionId } : {}),
  };
}

/**
 * The change the policy judges: a percentage as given; otherwise the dry run's target, so an amount to add or take
 * off is measured like a new budget against the one it starts from.
 */
function changeToJudge(
  item: EntityActionItem,
  dryRun: EntityActionResult,
): { change: AgentChange; live: number | null } {
  const live = typeof dryRun.from === 'number' ? dryRun.from : null;
  if (item.type === 'pause' || item.type === 'resume') return { change: { type: item.type }, live };
  if (item.percent !== undefined) return { change: { type: item.type, percent: item.percent }, live };
  return {
    change: { type: 'set_budget', ...(typeof dryRun.to === 'number' ? { amount: dryRun.to } : {}) },
    live,
  };
}

/**
 * The key of the applied call this one repeats, if it is a retry of a relative budget change: the agent's latest
 * change of the entity with this action, made in the window from the value it left, by the same request. Its dry
 * run starts from the value the first call wrote, so the key of the values would name a new request and apply the
 * change twice.
 */
async function retriedKey(
  services: ChangeToolServices,
  context: ToolContext,
  item: EntityActionItem,
  dryRun: EntityActionResult,
): Promise<string | null> {
  if ((item.type !== 'increase_budget' && item.type !== 'decrease_budget') || !context.agent) return null;
  const last = await services.actions.lastAgentChange(context.scope, context.agent.credentialId, item);
  if (!last || services.now().getTime() - last.at.getTime() > RETRY_WINDOW_MS || last.to !== dryRun.from) return null;
  return last.key === keyOf('apply', [item], [{ ...dryRun, from: last.from }]) ? last.key : null;
}

async function route(
  services: ChangeToolServices,
  scope: TenantScope,
  item: EntityActionItem,
  dryRun: EntityActionResult,
): Promise<{ apply: boolean; policy: Record<string, unknown> }> {
  const campaigns = await services.actions.campaignsOf(scope, [item]);
  const { change, live } = changeToJudge(item, dryRun);
  const decided = await services.policy.routeChange(scope, change, {
    campaignId: campaigns.get(item.entityId) ?? null,
    liveBudget: live,
  });
  return {
    apply: decided.route === 'apply',
    policy: {
      route: decided.route,
      ...(decided.route === 'propose'
        ? { reasons: decided.reasons }
        : { budgetChangePercent: decided.budgetChangePercent }),
      maxBudgetChangePercent: decided.policy.maxBudgetChangePercent,
      maxChangesPerDay: decided.policy.maxChangesPerDay,
      appliedToday: decided.appliedToday,
    },
  };
}

/**
 * The agents' two change tools (ADR 0145), over the explorer's manual actions only: `propose_changes` leaves each
 * change in the Inbox for a person; `apply_change` writes one through the ledger within the workspace's agent
 * policy and proposes it beyond. The actor is always the credential the call was authenticated with.
 */
export function changeTools(services: ChangeToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'propose_changes',
      title: 'Propose changes',
      description: 'Leaves changes in the Inbox for a person to approve, each with its from → to; never writes to Meta',
      scope: 'propose',
      input: z.strictObject({ changes, reason: reasonInput }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: async (context, input) => {
        const actor = actorOf(context);
        const dryRun = await services.actions.run(context.scope, input.changes, { actor, mode: 'dry_run' });
        const key = keyOf('propose', input.changes, dryRun);
        const results = await services.actions.run(context.scope, input.changes, { actor, mode: 'propose', key });
        return {
          changes: results.map(presented),
          proposed: results.filter((result) => result.outcome === 'proposed').length,
          reason: input.reason,
        };
      },
    }),
    defineTool({
      name: 'apply_change',
      title: 'Apply a change',
      description: 'Applies one change through the ledger within the agent policy (revertable); beyond it, proposes it',
      scope: 'write',
      input: applyInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: async (context, input) => {
        const actor = actorOf(context);
        const { reason, entityId, type, amount, percent } = input;
        const item: EntityActionItem = {
          entityId,
          type,
          ...(amount !== undefined ? { amount } : {}),
          ...(percent !== undefined ? { percent } : {}),
        };
        const [dryRun] = await services.actions.run(context.scope, [item], { actor, mode: 'dry_run' });
        if (!dryRun) throw new Error('a dry run answers every item');
        if (dryRun.outcome !== 'would_apply') return { change: presented(dryRun), reason };
        const retried = await retriedKey(services, context, item, dryRun);
        if (retried) {
          const [first] = await services.actions.run(context.scope, [item], { actor, mode: 'apply', key: retried });
          return { change: presented(first ?? dryRun), repeated: true, reason };
        }
        const decided = await route(services, context.scope, item, dryRun);
        const mode = decided.apply ? 'apply' : 'propose';
        const [result] = await services.actions.run(context.scope, [item], {
          actor,
          mode,
          key: keyOf(mode, [item], [dryRun]),
        });
        return { change: presented(result ?? dryRun), policy: decided.policy, reason };
      },
    }),
  ];
}
