import { describeActivity, toMajorUnits, type CodeParams, type ExternalChangeField } from '@adpilot/contracts';
import type { TenantTx } from '@adpilot/db';
import type { GraphActivity } from '@adpilot/meta';
import type { ActivityRepository } from '../activity/index.ts';
import type { EntityInput } from './ad-accounts.repository.ts';
import type { ExternalChangeMark, MirrorValue } from './external-changes.repository.ts';

type Value = string | number | null;

/** One field of one entity that Meta now holds differently from the mirror. */
export interface FieldChange {
  entity: MirrorValue;
  field: ExternalChangeField;
  from: Value;
  to: Value;
}

/** A write AdPilot made or is making at Meta (the rules' ledger): the value it wrote over, and the value it wrote. */
export interface OwnWrite {
  externalId: string;
  field: ExternalChangeField;
  before: Value;
  after: Value;
}

/** The rules' ledger, as the sync asks it: AdPilot's own writes to an account's entities since a moment. */
export interface OwnWrites {
  ownWritesIn(tx: TenantTx, adAccountId: string, since: Date): Promise<OwnWrite[]>;
}

/** A change nobody in AdPilot made: when, and who and through which app when the activity history says. */
export interface ExternalChange extends FieldChange {
  at: Date;
  actor: string | null;
  app: string | null;
}

const valueOf = (entity: Pick<MirrorValue, 'status' | 'dailyBudget' | 'lifetimeBudget'>, field: ExternalChangeField) =>
  field === 'status' ? entity.status : field === 'daily_budget' ? entity.dailyBudget : entity.lifetimeBudget;

/**
 * The status and budget fields Meta holds differently from the mirror, for entities the mirror already knew. An
 * entity Meta no longer lists is not a change of status here (the sync marks it deleted).
 */
export function diffMirror(mirror: readonly MirrorValue[], pulled: readonly EntityInput[]): FieldChange[] {
  const known = new Map(mirror.map((entity) => [entity.externalId, entity]));
  const changes: FieldChange[] = [];
  for (const entity of pulled) {
    const before = known.get(entity.externalId);
    if (!before) continue;
    for (const field of ['status', 'daily_budget', 'lifetime_budget'] as const) {
      const from = valueOf(before, field);
      const to = valueOf(entity, field);
      if (from !== to) changes.push({ entity: before, field, from, to });
    }
  }
  return changes;
}

/**
 * Ours when the ledger wrote that value on that field, or when Meta was read just before our write landed (Meta
 * still shows what we wrote over while the mirror already holds what we wrote).
 */
function isOwn(change: FieldChange, writes: readonly OwnWrite[]): boolean {
  return writes.some(
    (write) =>
      write.externalId === change.entity.externalId &&
      write.field === change.field &&
      (write.after === change.to || (write.before === change.to && write.after === change.from)),
  );
}

/** Graph times carry their offset as +0700; Date.parse wants +07:00. */
function parseGraphTime(value: string): Date | null {
  const parsed = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

const isStatusEvent = (type: string) => type.endsWith('_run_status');
const isBudgetEvent = (type: string) => type.endsWith('_budget');

/**
 * The changes AdPilot did not make, each with the newest history entry about it. A change through our own app
 * that the ledger does not hold (a script with the app's access, another installation) is outside AdPilot too, and
 * named as such rather than after the token's owner. Without an entry (Meta's history lags or is not readable) the
 * change is dated when the sync found it.
 */
export function externalChanges(
  changes: readonly FieldChange[],
  writes: readonly OwnWrite[],
  history: readonly GraphActivity[],
  ownAppId: string,
  foundAt: Date,
): ExternalChange[] {
  return changes
    .filter((change) => !isOwn(change, writes))
    .map((change) => {
      const entry = history.find(
        (activity) =>
          activity.object_id === change.entity.externalId &&
          (change.field === 'status' ? isStatusEvent(activity.event_type) : isBudgetEvent(activity.event_type)),
      );
      const at = (entry && parseGraphTime(entry.event_time)) ?? foundAt;
      const ours = entry?.application_id === ownAppId;
      const actor = entry && !ours ? (entry.actor_name ?? null) : null;
      const app = actor ? (entry?.application_name ?? entry?.application_id ?? null) : null;
      return { ...change, at, actor, app };
    });
}

/** A value as the entry stores it: a status as Meta names it, a budget in its currency's major units, none as "—". */
function shown(value: Value, field: ExternalChangeField, currency: string): string | number {
  if (value === null) return '—';
  if (field === 'status' || typeof value === 'string') return String(value);
  return toMajorUnits(value, currency);
}

/** The activity entry of one external change, and the mark the rules read: one unit of work with the sync's landing. */
export async function recordExternalChanges(
  activity: Pick<ActivityRepository, 'insert'>,
  tx: TenantTx,
  account: { id: string; facebookAccountName: string; currency: string },
  changes: readonly ExternalChange[],
): Promise<ExternalChangeMark[]> {
  const marks = new Map<string, ExternalChangeMark>();
  for (const change of changes) {
    const params: CodeParams = {
      accountName: account.facebookAccountName,
      target: change.entity.name,
      level: change.entity.level,
      change: change.field,
      from: shown(change.from, change.field, account.currency),
      to: shown(change.to, change.field, account.currency),
      // The readers write a budget in this currency, in their own language.
      ...(change.field === 'status' ? {} : { currency: account.currency }),
      ...(change.actor ? { actor: change.actor, app: change.app ?? '' } : {}),
    };
    await activity.insert(tx, {
      level: 'warning',
      category: 'sync',
      description: describeActivity('external_change', params),
      adAccountId: account.id,
      metadata: { code: 'external_change', params, entityExternalId: change.entity.externalId },
    });
    const mark = marks.get(change.entity.externalId);
    if (!mark || mark.at < change.at) {
      marks.set(change.entity.externalId, { externalId: change.entity.externalId, at: change.at, by: change.actor });
    }
  }
  return [...marks.values()];
}
