import { localDate } from '@adpilot/contracts';
import { HOUR_MS } from '../../world/time-zone.ts';
import type {
  Mutation,
  MutationActor,
  SandboxAccount,
  SandboxAdSet,
  SandboxCampaign,
  SandboxEntity,
  WritableStatus,
} from '../../world/types.ts';
import { budgetAt, statusAt } from '../../world/world.ts';
import { ownAccount, ownEntity, requireScope, requireUser } from '../authenticate.ts';
import { GraphError, invalidParameter } from '../graph-error.ts';
import { jsonParam } from '../params.ts';
import { describeAmount } from '../objects.ts';
import type { Auth, GraphCall, GraphRuntime } from '../runtime.ts';

const STATUSES: readonly WritableStatus[] = ['ACTIVE', 'PAUSED'];
export const BUDGET_CHANGES_PER_HOUR = 4;
/** Account statuses in which Meta accepts no edits: DISABLED, UNSETTLED, PENDING_CLOSURE, CLOSED. */
const FROZEN_ACCOUNT: Record<number, string> = {
  2: 'This ad account is disabled: its campaigns, ad sets and ads cannot be edited',
  3: 'This ad account has an unsettled balance: pay it before editing campaigns, ad sets or ads',
  100: 'This ad account is being closed: its campaigns, ad sets and ads cannot be edited',
  101: 'This ad account is closed: its campaigns, ad sets and ads cannot be edited',
};

function budgetOwner(target: SandboxEntity, rt: GraphRuntime): SandboxCampaign | SandboxAdSet {
  if (target.kind === 'ad') throw invalidParameter('Ads have no budget: change the budget of the ad set or campaign');
  if (target.kind === 'campaign' && !target.entity.isCbo) {
    throw invalidParameter("This campaign's budget is set on its ad sets: change the ad set budgets instead");
  }
  if (target.kind === 'adset' && rt.world.campaignOf(target.entity).isCbo) {
    throw new GraphError({
      message: 'Invalid parameter',
      code: 100,
      subcode: 1885621,
      userTitle: 'Budget Conflict: Campaign Already Has a Budget',
      userMessage:
        'This ad set belongs to a campaign with Advantage campaign budget: change the budget on the campaign instead.',
    });
  }
  return target.entity;
}

/** Meta's answer to the 5th budget change of an ad set within an hour: plain code 17, the ad set held an hour. */
function budgetLimit(): GraphError {
  return new GraphError({ message: '(#17) User request limit reached', code: 17, isTransient: true });
}

function checkAccount(account: SandboxAccount): void {
  const frozen = FROZEN_ACCOUNT[account.accountStatus];
  if (frozen) throw invalidParameter(frozen, undefined, frozen);
}

/** `execution_options=["validate_only"]`: every check runs, nothing changes. */
function isValidateOnly(call: GraphCall): boolean {
  const options = jsonParam(call.params, 'execution_options');
  if (options === undefined) return false;
  if (!Array.isArray(options) || options.some((option) => option !== 'validate_only')) {
    throw invalidParameter('Param execution_options must be an array of: validate_only');
  }
  return options.length > 0;
}

function parseAmount(name: string, raw: string): number {
  if (!/^\d{1,12}$/.test(raw))
    throw invalidParameter(`Param ${name} must be a positive integer in the currency's minor units`);
  return Number(raw);
}

/** Meta's budget rules: the right kind of budget, a floor, room above today's spend, and 4 changes per hour. */
function checkBudget(
  rt: GraphRuntime,
  target: SandboxEntity,
  params: GraphCall['params'],
  mutation: Mutation,
  now: number,
  validateOnly: boolean,
): void {
  const { daily_budget: daily, lifetime_budget: lifetime } = params;
  if (daily !== undefined && lifetime !== undefined)
    throw invalidParameter('Set either daily_budget or lifetime_budget, not both');
  const owner = budgetOwner(target, rt);
  const account = rt.world.accountOf(owner);
  const current = budgetAt(owner.budgetLog, now);
  const amount =
    daily !== undefined ? parseAmount('daily_budget', daily) : parseAmount('lifetime_budget', lifetime ?? '');
  if (
    (daily !== undefined && current?.lifetimeBudget !== undefined) ||
    (lifetime !== undefined && current?.dailyBudget !== undefined)
  ) {
    throw invalidParameter("You can't switch between a daily and a lifetime budget");
  }
  if (amount < account.minDailyBudget) {
    const minimum = describeAmount(account.minDailyBudget, account.currency);
    throw invalidParameter(
      `Your budget is too low. The minimum budget is ${minimum}.`,
      1885272,
      `The minimum budget is ${minimum}.`,
    );
  }
  if (daily !== undefined && current?.dailyBudget !== undefined && amount < current.dailyBudget) {
    const spentToday = rt.delivery.poolSpend(owner, localDate(account.timezone, now), now);
    if (amount < spentToday * 1.1) {
      throw invalidParameter(
        `A lowered daily budget must stay at least 10% above today's spend (${describeAmount(Math.round(spentToday), account.currency)})`,
      );
    }
  }
  // Meta limits ad set budgets, not campaign budgets, to about 4 changes an hour.
  if (target.kind === 'adset') checkHourlyLimit(target.entity, now, validateOnly);
  if (daily !== undefined) mutation.dailyBudget = amount;
  else mutation.lifetimeBudget = amount;
}

function checkHourlyLimit(adSet: SandboxAdSet, now: number, validateOnly: boolean): void {
  if ((adSet.budgetBlockedUntil ?? 0) > now) throw budgetLimit();
  const recentChanges = adSet.budgetLog.filter((change) => change.at > now - HOUR_MS && change.at <= now).length;
  if (recentChanges >= BUDGET_CHANGES_PER_HOUR) {
    if (!validateOnly) adSet.budgetBlockedUntil = now + HOUR_MS;
    throw budgetLimit();
  }
}

/**
 * Checks one change as Meta does (account open, object not put away, budget rules) and answers the write to record:
 * the Graph API's `POST /{id}` and the sandbox's Ads Manager page both go through it.
 */
export function validateUpdate(
  rt: GraphRuntime,
  target: SandboxEntity,
  params: GraphCall['params'],
  by: MutationActor,
  validateOnly = false,
): Mutation {
  checkAccount(rt.world.accountOf(target.entity));
  const { status } = params;
  const hasBudget = params.daily_budget !== undefined || params.lifetime_budget !== undefined;
  if (status === undefined && !hasBudget)
    throw invalidParameter('Nothing to update: send status, daily_budget or lifetime_budget');
  const now = rt.now();
  const own = statusAt(target.entity.statusLog, now);
  if (own === 'ARCHIVED' || own === 'DELETED') {
    throw invalidParameter(`This object is ${own.toLowerCase()} and cannot be edited`);
  }
  const mutation: Mutation = { at: now, objectId: target.entity.id, by };
  if (status !== undefined) {
    if (!STATUSES.includes(status as WritableStatus))
      throw invalidParameter(`Param status must be one of {${STATUSES.join(', ')}}`);
    mutation.status = status as WritableStatus;
  }
  if (hasBudget) checkBudget(rt, target, params, mutation, now, validateOnly);
  return mutation;
}

/**
 * `POST /{id}` with status, daily_budget or lifetime_budget: validated as Meta does, then applied at the sandbox's
 * now and logged as the token's person's change through this app, or only validated with validate_only.
 */
export function handleUpdate(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  if (id.startsWith('act_')) {
    ownAccount(rt, user, id, call.method);
    throw invalidParameter('Ad account updates are not simulated by the sandbox');
  }
  const target = ownEntity(rt, user, id, call.method);
  requireScope(user, 'write');
  const validateOnly = isValidateOnly(call);
  // The activity history names the person whose token made the call and the app it came through.
  const by: MutationActor = {
    actorId: user.persona.id,
    actorName: user.persona.name,
    applicationId: rt.settings.appId,
    applicationName: rt.settings.appName,
  };
  const mutation = validateUpdate(rt, target, call.params, by, validateOnly);
  if (!validateOnly) rt.recordMutation(mutation);
  return { success: true };
}
