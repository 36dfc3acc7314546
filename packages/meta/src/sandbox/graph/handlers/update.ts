import { HOUR_MS, localDate } from '../../world/time-zone.ts';
import type { ConfiguredStatus, Mutation, SandboxAdSet, SandboxCampaign, SandboxEntity } from '../../world/types.ts';
import { budgetAt } from '../../world/world.ts';
import { ownAccount, ownEntity, requireScope, requireUser } from '../authenticate.ts';
import { GraphError, invalidParameter } from '../graph-error.ts';
import { describeAmount } from '../objects.ts';
import type { Auth, GraphCall, GraphRuntime } from '../runtime.ts';

const STATUSES: readonly ConfiguredStatus[] = ['ACTIVE', 'PAUSED'];
export const BUDGET_CHANGES_PER_HOUR = 4;

function budgetOwner(target: SandboxEntity, rt: GraphRuntime): SandboxCampaign | SandboxAdSet {
  if (target.kind === 'ad') throw invalidParameter('Ads have no budget: change the budget of the ad set or campaign');
  if (target.kind === 'campaign' && !target.entity.isCbo) {
    throw invalidParameter("This campaign's budget is set on its ad sets: change the ad set budgets instead");
  }
  if (target.kind === 'adset' && rt.world.campaignOf(target.entity).isCbo) {
    throw invalidParameter(
      'This ad set belongs to a campaign with Advantage campaign budget: change the budget on the campaign',
    );
  }
  return target.entity;
}

function parseAmount(name: string, raw: string): number {
  if (!/^\d{1,12}$/.test(raw))
    throw invalidParameter(`Param ${name} must be a positive integer in the currency's minor units`);
  return Number(raw);
}

/** Meta's budget rules: the right kind of budget, a floor, room above today's spend, and 4 changes per hour. */
function checkBudget(rt: GraphRuntime, target: SandboxEntity, call: GraphCall, mutation: Mutation, now: number): void {
  const { daily_budget: daily, lifetime_budget: lifetime } = call.params;
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
  const recentChanges = owner.budgetLog.filter((change) => change.at > now - HOUR_MS && change.at <= now).length;
  if (recentChanges >= BUDGET_CHANGES_PER_HOUR) {
    throw new GraphError({
      message: `(#17) Budget change limit reached: a budget can be changed at most ${BUDGET_CHANGES_PER_HOUR} times per hour`,
      code: 17,
      subcode: 1885172,
      userTitle: 'Too Many Budget Changes',
      userMessage: `You can change the budget of an ad set or campaign up to ${BUDGET_CHANGES_PER_HOUR} times an hour. Try again later.`,
    });
  }
  if (daily !== undefined) mutation.dailyBudget = amount;
  else mutation.lifetimeBudget = amount;
}

/** `POST /{id}` with status, daily_budget or lifetime_budget: validated, applied at the sandbox's now, logged. */
export function handleUpdate(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  if (id.startsWith('act_')) {
    ownAccount(rt, user, id, call.method);
    throw invalidParameter('Ad account updates are not simulated by the sandbox');
  }
  const target = ownEntity(rt, user, id, call.method);
  requireScope(user, 'write');
  const { status } = call.params;
  const hasBudget = call.params.daily_budget !== undefined || call.params.lifetime_budget !== undefined;
  if (status === undefined && !hasBudget)
    throw invalidParameter('Nothing to update: send status, daily_budget or lifetime_budget');
  const now = rt.now();
  const mutation: Mutation = { at: now, objectId: id };
  if (status !== undefined) {
    if (!STATUSES.includes(status as ConfiguredStatus))
      throw invalidParameter(`Param status must be one of {${STATUSES.join(', ')}}`);
    mutation.status = status as ConfiguredStatus;
  }
  if (hasBudget) checkBudget(rt, target, call, mutation, now);
  rt.recordMutation(mutation);
  return { success: true };
}
