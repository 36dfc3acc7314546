import { budgetAt } from '../../world/world.ts';
import { ownEntity, requireScope, requireUser } from '../authenticate.ts';
import { invalidParameter, unsupportedRequest } from '../graph-error.ts';
import type { Auth, GraphCall, GraphRuntime } from '../runtime.ts';

/** One budget schedule (Meta's "high demand period") of a campaign or an ad set. */
export interface BudgetSchedule {
  id: string;
  objectId: string;
  budget_value: number;
  budget_value_type: 'ABSOLUTE' | 'MULTIPLIER';
  time_start: number;
  time_end: number;
}

/**
 * The schedules of each world, in memory (not in the state file): created by `POST /{campaign|adset}/budget_schedules`,
 * listed by its GET, removed by `DELETE /{schedule_id}`.
 */
const stores = new WeakMap<object, Map<string, BudgetSchedule>>();
let nextId = 23_850_000_000_000;

function storeOf(rt: GraphRuntime): Map<string, BudgetSchedule> {
  let store = stores.get(rt.world);
  if (!store) {
    store = new Map();
    stores.set(rt.world, store);
  }
  return store;
}

export function isBudgetSchedule(rt: GraphRuntime, id: string): boolean {
  return storeOf(rt).has(id);
}

const INT64 = /^-?\d{1,19}$/;

function int64(call: GraphCall, name: string): number {
  const raw = call.params[name];
  if (raw === undefined || raw === '') throw invalidParameter(`The parameter ${name} is required`);
  const text = String(raw);
  if (!INT64.test(text)) throw invalidParameter(`Param ${name} must be an integer`);
  return Number(text);
}

/** The entity whose own budget a schedule raises: a campaign with a campaign budget, or an ad set with its own. */
function budgetHolder(rt: GraphRuntime, auth: Auth, id: string, method: string) {
  const user = requireUser(auth);
  const target = ownEntity(rt, user, id, method);
  if (target.kind === 'ad') throw unsupportedRequest(method, `${id}/budget_schedules`);
  const budget = budgetAt(target.entity.budgetLog, rt.now());
  if (!budget || (!budget.dailyBudget && !budget.lifetimeBudget)) {
    // Where the budget lives on the other level (Advantage campaign budget, or ad set budgets), Meta refuses.
    throw invalidParameter(
      target.kind === 'adset'
        ? "Budget scheduling is not available for this ad set: its campaign uses Advantage campaign budget, so the budget is the campaign's."
        : 'Budget scheduling is not available for this campaign: it has no campaign budget (its ad sets hold the budgets).',
    );
  }
  return { user, target };
}

/** `POST /{campaign_id|adset_id}/budget_schedules`: budget_value, budget_value_type, time_start, time_end; `{ id }`. */
export function handleCreateBudgetSchedule(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const { user } = budgetHolder(rt, auth, id, call.method);
  requireScope(user, 'write');
  const type = call.params.budget_value_type;
  if (type === undefined || type === '') throw invalidParameter('The parameter budget_value_type is required');
  if (type !== 'ABSOLUTE' && type !== 'MULTIPLIER') {
    throw invalidParameter('Param budget_value_type must be one of {ABSOLUTE, MULTIPLIER}');
  }
  const value = int64(call, 'budget_value');
  const start = int64(call, 'time_start');
  const end = int64(call, 'time_end');
  if (value <= 0) throw invalidParameter('Param budget_value must be a positive number');
  if (end <= start) throw invalidParameter('time_end must be after time_start');
  const schedule: BudgetSchedule = {
    id: String(nextId++),
    objectId: id,
    budget_value: value,
    budget_value_type: type,
    time_start: start,
    time_end: end,
  };
  storeOf(rt).set(schedule.id, schedule);
  return { id: schedule.id };
}

/** `GET /{campaign_id|adset_id}/budget_schedules`, with Meta's `time_start` / `time_stop` search parameters. */
export function handleListBudgetSchedules(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  const target = ownEntity(rt, user, id, call.method);
  if (target.kind === 'ad') throw unsupportedRequest(call.method, `${id}/budget_schedules`);
  const from = call.params.time_start === undefined ? undefined : int64(call, 'time_start');
  const to = call.params.time_stop === undefined ? undefined : int64(call, 'time_stop');
  const data = [...storeOf(rt).values()]
    .filter((schedule) => schedule.objectId === id)
    .filter((schedule) => from === undefined || schedule.time_end > from)
    .filter((schedule) => to === undefined || schedule.time_start < to)
    .map(({ objectId: _objectId, ...schedule }) => schedule);
  return { data, paging: {} };
}

/** `DELETE /{schedule_id}`: the schedule of one of the user's own campaigns or ad sets. */
export function handleDeleteBudgetSchedule(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  const schedule = storeOf(rt).get(id);
  if (!schedule) throw unsupportedRequest(call.method, id);
  ownEntity(rt, user, schedule.objectId, call.method);
  requireScope(user, 'write');
  storeOf(rt).delete(id);
  return { success: true };
}
