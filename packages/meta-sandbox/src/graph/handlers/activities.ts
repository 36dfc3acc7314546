import { zoneOffsetMs } from '@adpilot/contracts';
import { DAY_MS, formatGraphTime } from '../../world/time-zone.ts';
import type { EntityKind, Mutation, MutationActor, SandboxAccount } from '../../world/types.ts';
import { ownAccount, requireScope, requireUser } from '../authenticate.ts';
import { invalidParameter, nonexistingField } from '../graph-error.ts';
import { mapPage, paginate } from '../paging.ts';
import { fieldList } from '../params.ts';
import { pageLink, type Auth, type GraphCall, type GraphRuntime } from '../runtime.ts';

/** One entry of an ad account's activity history, before its fields are picked. */
export interface SandboxActivity {
  at: number;
  eventType: string;
  objectId: string;
  objectName: string;
  objectKind: EntityKind;
  by: MutationActor | undefined;
  /** Old and new value (and currency for a budget), sent as Meta does: a JSON string. */
  extra: Record<string, unknown>;
}

/** The SDK's AdActivity event types for the changes the sandbox accepts. */
const STATUS_EVENT: Record<EntityKind, string> = {
  campaign: 'update_campaign_run_status',
  adset: 'update_ad_set_run_status',
  ad: 'update_ad_run_status',
};
const BUDGET_EVENT: Record<Exclude<EntityKind, 'ad'>, string> = {
  campaign: 'update_campaign_budget',
  adset: 'update_ad_set_budget',
};
const TRANSLATED: Record<string, string> = {
  update_campaign_run_status: 'Campaign status updated',
  update_ad_set_run_status: 'Ad set status updated',
  update_ad_run_status: 'Ad status updated',
  update_campaign_budget: 'Campaign budget updated',
  update_ad_set_budget: 'Ad set budget updated',
};
const OBJECT_TYPE: Record<EntityKind, string> = { campaign: 'CAMPAIGN', adset: 'AD_SET', ad: 'AD' };

/** Meta answers a week of history when no `since` is given. */
const DEFAULT_SPAN_MS = 7 * DAY_MS;

/** The history entries one accepted write makes: one per field it changed (status, budget). */
function activitiesOf(rt: GraphRuntime, mutation: Mutation, currency: string): SandboxActivity[] {
  const target = rt.world.findEntity(mutation.objectId);
  if (!target) return [];
  const base = {
    at: mutation.at,
    objectId: target.entity.id,
    objectName: target.entity.name,
    objectKind: target.kind,
    by: mutation.by,
  };
  const entries: SandboxActivity[] = [];
  const before = mutation.before ?? {};
  if (mutation.status !== undefined && before.status !== mutation.status) {
    entries.push({
      ...base,
      eventType: STATUS_EVENT[target.kind],
      extra: { old_value: before.status ?? null, new_value: mutation.status },
    });
  }
  const field = mutation.dailyBudget !== undefined ? 'dailyBudget' : 'lifetimeBudget';
  const amount = mutation[field];
  if (target.kind !== 'ad' && amount !== undefined && before[field] !== amount) {
    entries.push({
      ...base,
      eventType: BUDGET_EVENT[target.kind],
      extra: {
        type: field === 'dailyBudget' ? 'daily_budget' : 'lifetime_budget',
        currency,
        old_value: before[field] ?? null,
        new_value: amount,
      },
    });
  }
  return entries;
}

/** The account's history so far, newest first. Writes kept from before the sandbox named actors have none. */
export function accountActivities(rt: GraphRuntime, account: SandboxAccount, mutations: readonly Mutation[]) {
  const now = rt.now();
  return mutations
    .filter((mutation) => mutation.at <= now && rt.world.findEntity(mutation.objectId)?.entity.accountId === account.id)
    .flatMap((mutation) => activitiesOf(rt, mutation, account.currency))
    .reverse();
}

/** Graph's `datetime` parameters: unix seconds, or a date or date-time string. */
function instantParam(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^\d{1,12}$/.test(raw)) return Number(raw) * 1000;
  const parsed = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(parsed)) throw invalidParameter(`Param ${name} must be a unix timestamp or a date`);
  return parsed;
}

/** Ads Manager shows the account's local wall time, e.g. "3/14/2026 at 9:05 AM" (account time zone). */
function localWallTime(instant: number, timeZone: string): string {
  const wall = new Date(instant + zoneOffsetMs(timeZone, instant));
  const hours = wall.getUTCHours();
  const minutes = String(wall.getUTCMinutes()).padStart(2, '0');
  const half = hours < 12 ? 'AM' : 'PM';
  return `${wall.getUTCMonth() + 1}/${wall.getUTCDate()}/${wall.getUTCFullYear()} at ${hours % 12 || 12}:${minutes} ${half}`;
}

type Getter = (activity: SandboxActivity, account: SandboxAccount) => unknown;

const ACTIVITY_FIELDS: Record<string, Getter> = {
  actor_id: (activity) => activity.by?.actorId,
  actor_name: (activity) => activity.by?.actorName,
  application_id: (activity) => activity.by?.applicationId,
  application_name: (activity) => activity.by?.applicationName,
  date_time_in_timezone: (activity, account) => localWallTime(activity.at, account.timezone),
  event_time: (activity, account) => formatGraphTime(activity.at, account.timezone),
  event_type: (activity) => activity.eventType,
  extra_data: (activity) => JSON.stringify(activity.extra),
  object_id: (activity) => activity.objectId,
  object_name: (activity) => activity.objectName,
  object_type: (activity) => OBJECT_TYPE[activity.objectKind],
  translated_event_type: (activity) => TRANSLATED[activity.eventType],
};

/** Without `fields` Meta answers the default ones. */
const DEFAULT_FIELDS = ['event_time', 'event_type'];

function format(activity: SandboxActivity, account: SandboxAccount, fields: readonly string[]) {
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const value = ACTIVITY_FIELDS[field]?.(activity, account);
    if (value !== undefined) result[field] = value;
  }
  return result;
}

/**
 * `GET /act_{id}/activities`: the account's history of status and budget changes, newest first, between `since`
 * and `until` (a week back by default), optionally of one object (`oid`), paged like every edge.
 */
export function handleActivities(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  requireScope(user, 'read');
  const account = ownAccount(rt, user, id, call.method);
  const fields = fieldList(call.params.fields);
  for (const field of fields) if (!ACTIVITY_FIELDS[field]) throw nonexistingField(field, 'AdActivity');
  const until = instantParam('until', call.params.until) ?? rt.now();
  const since = instantParam('since', call.params.since) ?? until - DEFAULT_SPAN_MS;
  const only = call.params.oid;
  const items = accountActivities(rt, account, rt.mutations).filter(
    (activity) => activity.at >= since && activity.at <= until && (only === undefined || activity.objectId === only),
  );
  const picked = fields.length > 0 ? fields : DEFAULT_FIELDS;
  return mapPage(paginate(items, call.params, pageLink(call)), (activity) => format(activity, account, picked));
}
