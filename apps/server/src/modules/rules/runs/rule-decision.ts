import type { AdAccountRow, CodedText, RuleActionRow } from '@adpilot/db';
import { META_WRITE_SCOPE, nextLocalTime, toMajorUnits, type ResumeAfter } from '@adpilot/contracts';
import type { MetaApiError } from '@adpilot/meta';
import { liveValue, type FieldWrite, type LiveField, type LiveValues, type WriteOutcome } from './rule-meta.ts';

/**
 * The executor's decisions, as pure functions of the ledger rows, the ad account and what Meta answered: which
 * planned change is written, which is already in place, which is refused and why, which waits. The executor does
 * the I/O around them (rule-executor.ts); these are unit-tested case by case (rule-decision.test.ts).
 */

export type Settlement =
  | { state: 'applied'; wrote: boolean; scheduleId?: string }
  | { state: 'failed'; error: CodedText }
  | { state: 'postponed'; error: CodedText; retryAt: Date }
  | { state: 'skipped'; error: CodedText };

/** What of the ad account the decisions read. */
export type DecidingAccount = Pick<AdAccountRow, 'needsReauth' | 'missingScopes' | 'minDailyBudget' | 'currency'>;

export interface PlannedWrite {
  row: RuleActionRow;
  write: FieldWrite;
}

export function target(row: RuleActionRow): string | number | null {
  return row.field === 'status' ? row.afterStatus : row.afterMinor;
}

export function before(row: RuleActionRow): string | number | null {
  return row.field === 'status' ? row.beforeStatus : row.beforeMinor;
}

/**
 * A budget (daily, or lifetime: never under one day's minimum) under the account's known minimum daily budget
 * (Meta's `min_daily_budget`): Meta would refuse it (100/1885272), so it is never sent. The engine does not plan
 * one; this catches rows planned before the minimum was known or rose (ADR 0055).
 */
function belowMinimum(row: RuleActionRow, account: DecidingAccount): CodedText | null {
  const minimum = account.minDailyBudget;
  const budget = row.field === 'daily_budget' || row.field === 'lifetime_budget';
  if (!budget || minimum === null || row.afterMinor === null || row.afterMinor >= minimum) return null;
  return {
    code: 'below_account_minimum',
    params: {
      amount: toMajorUnits(row.afterMinor, account.currency),
      minimum: toMajorUnits(minimum, account.currency),
      currency: account.currency,
    },
  };
}

/**
 * Before any call to Meta: rows with nothing to write (notify) are applied; an account that needs reconnecting or
 * was connected read-only refuses every write (ADR 11); a budget under the account's minimum is refused. What is
 * left is `sendable`: its live values are read next.
 */
export function screen(
  account: DecidingAccount,
  rows: readonly RuleActionRow[],
): { settlements: Map<string, Settlement>; sendable: RuleActionRow[] } {
  const settlements = new Map<string, Settlement>();
  const writing = rows.filter((row) => row.field !== null);
  for (const row of rows) if (row.field === null) settlements.set(row.id, { state: 'applied', wrote: false });
  const refuseAll = account.needsReauth
    ? { code: 'reauth_required' }
    : account.missingScopes.includes(META_WRITE_SCOPE)
      ? { code: 'read_only' }
      : null;
  const sendable: RuleActionRow[] = [];
  for (const row of writing) {
    const refusal = refuseAll ?? belowMinimum(row, account);
    if (refusal) settlements.set(row.id, { state: 'failed', error: refusal });
    else sendable.push(row);
  }
  return { settlements, sendable };
}

/**
 * With the live values read just before writing: an entity Meta no longer answers for is missing; one that already
 * has the target value is applied without a write (a write that landed before a crash, or a person made the same
 * change); one whose value is no longer the planned "before" is refused, since writing a target computed from the
 * old value could undo someone's change; the rest are written.
 */
export function decide(
  sendable: readonly RuleActionRow[],
  live: ReadonlyMap<string, LiveValues>,
): { settlements: Map<string, Settlement>; writes: PlannedWrite[] } {
  const settlements = new Map<string, Settlement>();
  const writes: PlannedWrite[] = [];
  for (const row of sendable) {
    const entity = live.get(row.targetExternalId);
    const field = row.field as LiveField;
    const wanted = target(row);
    if (!entity || wanted === null) {
      settlements.set(row.id, { state: 'failed', error: { code: 'entity_missing' } });
      continue;
    }
    const current = liveValue(entity, field);
    if (current === wanted) settlements.set(row.id, { state: 'applied', wrote: false });
    else if (current !== before(row))
      settlements.set(row.id, {
        state: 'failed',
        error: { code: 'live_value_differs', params: { expected: before(row), found: current } },
      });
    else writes.push({ row, write: { id: row.targetExternalId, field, value: wanted } });
  }
  return { settlements, writes };
}

/** When a timed hold ends: some hours after its pause, or the next time the account's wall clock reads the time. */
export function holdResumeAt(resumeAfter: ResumeAfter, pausedAt: Date, timeZone: string): Date {
  if ('hours' in resumeAfter) return new Date(pausedAt.getTime() + resumeAfter.hours * 3_600_000);
  return new Date(nextLocalTime(timeZone, resumeAfter.atLocalTime, pausedAt.getTime()));
}

/**
 * Whether an applied pause starts its hold: when the rule wrote it, or may have (an earlier attempt's write that
 * landed before a crash); not when the entity was found already paused by someone else.
 */
export function startsHold(row: RuleActionRow, settlement: Settlement): boolean {
  return row.actionType === 'pause' && settlement.state === 'applied' && (settlement.wrote || row.attempts > 1);
}

/**
 * A hold's resume as the executor's decision left it: the status no longer the one the pause set (someone resumed,
 * archived or changed it) skips the resume rather than failing it, and an entity already active on the first
 * attempt was resumed by someone else, not by us. A later attempt finding it active is our earlier write.
 */
export function holdSettlement(row: RuleActionRow, settlement: Settlement): Settlement {
  const changed = (found: unknown) => ({
    code: 'status_changed_since_pause',
    params: { expected: before(row), found },
  });
  if (settlement.state === 'failed' && settlement.error.code === 'live_value_differs')
    return { state: 'skipped', error: changed(settlement.error.params?.found ?? null) };
  if (settlement.state === 'applied' && !settlement.wrote && row.attempts <= 1)
    return { state: 'skipped', error: changed(target(row)) };
  return settlement;
}

function metaError(error: MetaApiError): CodedText {
  return {
    code: 'meta_error',
    params: { message: error.message, metaCode: error.code, subcode: error.subcode ?? null },
  };
}

/**
 * Meta's answer to one write (or the failure of the whole exchange) as the row's settlement: a rate limit or a
 * transient failure postpones the row by the wait Meta announced (else `fallbackMs`), never drops it.
 */
export function settlementOf(answer: WriteOutcome | undefined, now: Date, fallbackMs: number): Settlement {
  if (!answer || answer.ok) return { state: 'applied', wrote: true };
  if (answer.kind === 'rate_limited' || (answer.kind === 'error' && answer.error.isTransient)) {
    const waitMs = answer.kind === 'rate_limited' ? (answer.retryAfterMs ?? fallbackMs) : fallbackMs;
    return {
      state: 'postponed',
      error: {
        code: 'meta_rate_limited',
        params: { metaCode: answer.error.code, waitSeconds: Math.ceil(waitMs / 1000) },
      },
      retryAt: new Date(now.getTime() + waitMs),
    };
  }
  if (answer.kind === 'reauth') return { state: 'failed', error: { code: 'reauth_required' } };
  return { state: 'failed', error: metaError(answer.error) };
}
