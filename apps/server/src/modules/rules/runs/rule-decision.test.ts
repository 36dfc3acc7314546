import { META_WRITE_SCOPE } from '@adpilot/contracts';
import type { RuleActionRow } from '@adpilot/db';
import {
  MetaApiError,
  MetaInvalidParameterError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  MetaTransientError,
  type LiveValues,
} from '@adpilot/meta';
import { describe, expect, it } from 'vitest';
import {
  decide,
  holdResumeAt,
  holdSettlement,
  screen,
  settlementOf,
  startsHold,
  type DecidingAccount,
} from './rule-decision.ts';
import { classify } from './rule-meta.ts';

const account: DecidingAccount = { needsReauth: false, missingScopes: [], minDailyBudget: 3_500, currency: 'THB' };
const now = new Date('2026-11-26T03:00:00Z');

let serial = 0;
function row(change: Partial<RuleActionRow>): RuleActionRow {
  serial += 1;
  return {
    id: `row-${serial}`,
    workspaceId: 'w',
    ruleId: 'r',
    runId: 'run',
    actorType: 'rule',
    actorId: null,
    actorUserId: null,
    actorName: null,
    adAccountId: 'a',
    slot: 's',
    actionType: 'pause',
    entityLevel: 'adset',
    entityExternalId: `e-${serial}`,
    entityName: 'Ad set',
    targetLevel: 'adset',
    targetExternalId: `e-${serial}`,
    targetName: 'Ad set',
    holderReason: null,
    holdOf: null,
    dueAt: null,
    field: 'status',
    currency: 'THB',
    beforeMinor: null,
    afterMinor: null,
    budgetSchedule: null,
    beforeStatus: 'ACTIVE',
    afterStatus: 'PAUSED',
    state: 'planned',
    explanation: {},
    error: null,
    attempts: 0,
    leaseUntil: null,
    appliedAt: null,
    revertedAt: null,
    proposal: null,
    expiresAt: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: now,
    updatedAt: now,
    ...change,
  };
}

const raise = (beforeMinor: number, afterMinor: number) =>
  row({
    actionType: 'increase_budget',
    field: 'daily_budget',
    beforeMinor,
    afterMinor,
    beforeStatus: null,
    afterStatus: null,
  });
const liveOf = (entries: [RuleActionRow, Partial<LiveValues>][]) =>
  new Map(
    entries.map(([r, values]) => [
      r.targetExternalId,
      { status: null, dailyBudget: null, lifetimeBudget: null, ...values },
    ]),
  );

describe('screen: what is settled before asking Meta', () => {
  it('applies a notification without a write and sends the rest', () => {
    const notify = row({ actionType: 'notify', field: null, beforeStatus: null, afterStatus: null });
    const pause = row({});
    const { settlements, sendable } = screen(account, [notify, pause]);
    expect(settlements.get(notify.id)).toEqual({ state: 'applied', wrote: false });
    expect(sendable).toEqual([pause]);
  });

  it('refuses every write of an account that needs reconnecting, but still applies its notifications', () => {
    const notify = row({ actionType: 'notify', field: null });
    const pause = row({});
    const budget = raise(5_000, 6_000);
    const { settlements, sendable } = screen({ ...account, needsReauth: true }, [notify, pause, budget]);
    expect(sendable).toEqual([]);
    expect(settlements.get(pause.id)).toEqual({ state: 'failed', error: { code: 'reauth_required' } });
    expect(settlements.get(budget.id)).toEqual({ state: 'failed', error: { code: 'reauth_required' } });
    expect(settlements.get(notify.id)).toEqual({ state: 'applied', wrote: false });
  });

  it('refuses every write of an account connected without the manage-ads permission', () => {
    const pause = row({});
    const { settlements, sendable } = screen({ ...account, missingScopes: [META_WRITE_SCOPE] }, [pause]);
    expect(sendable).toEqual([]);
    expect(settlements.get(pause.id)).toEqual({ state: 'failed', error: { code: 'read_only' } });
  });

  it('refuses a budget under the account minimum, in major units, and sends one at the minimum', () => {
    const under = raise(5_000, 3_499);
    const at = raise(5_000, 3_500);
    const { settlements, sendable } = screen(account, [under, at]);
    expect(settlements.get(under.id)).toEqual({
      state: 'failed',
      error: { code: 'below_account_minimum', params: { amount: 34.99, minimum: 35, currency: 'THB' } },
    });
    expect(sendable).toEqual([at]);
  });

  it('holds a lifetime budget to one day’s minimum too, and ignores the minimum while it is unknown', () => {
    const lifetime = row({ field: 'lifetime_budget', beforeMinor: 9_000, afterMinor: 100, beforeStatus: null });
    expect(screen(account, [lifetime]).sendable).toEqual([]);
    expect(screen({ ...account, minDailyBudget: null }, [lifetime]).sendable).toEqual([lifetime]);
  });
});

describe('decide: against the live values read just before writing', () => {
  it('writes a change whose live value is still the planned one', () => {
    const pause = row({});
    const budget = raise(5_000, 6_000);
    const { settlements, writes } = decide(
      [pause, budget],
      liveOf([
        [pause, { status: 'ACTIVE' }],
        [budget, { dailyBudget: 5_000 }],
      ]),
    );
    expect(settlements.size).toBe(0);
    expect(writes.map((w) => w.write)).toEqual([
      { id: pause.targetExternalId, field: 'status', value: 'PAUSED' },
      { id: budget.targetExternalId, field: 'daily_budget', value: 6_000 },
    ]);
  });

  it('marks a change already on Meta as applied without writing (a write that landed before a crash)', () => {
    const pause = row({});
    const { settlements, writes } = decide([pause], liveOf([[pause, { status: 'PAUSED' }]]));
    expect(writes).toEqual([]);
    expect(settlements.get(pause.id)).toEqual({ state: 'applied', wrote: false });
  });

  it('refuses a change whose live value someone changed since the plan, naming both values', () => {
    const budget = raise(5_000, 6_000);
    const { settlements, writes } = decide([budget], liveOf([[budget, { dailyBudget: 7_000 }]]));
    expect(writes).toEqual([]);
    expect(settlements.get(budget.id)).toEqual({
      state: 'failed',
      error: { code: 'live_value_differs', params: { expected: 5_000, found: 7_000 } },
    });
  });

  it('reads the field the row changes: a lifetime budget is not judged by the daily one', () => {
    const lifetime = row({ field: 'lifetime_budget', beforeMinor: 90_000, afterMinor: 99_000, beforeStatus: null });
    const { writes } = decide([lifetime], liveOf([[lifetime, { dailyBudget: 1, lifetimeBudget: 90_000 }]]));
    expect(writes.map((w) => w.write.value)).toEqual([99_000]);
  });

  it('fails an entity Meta no longer answers for', () => {
    const pause = row({});
    const { settlements } = decide([pause], new Map());
    expect(settlements.get(pause.id)).toEqual({ state: 'failed', error: { code: 'entity_missing' } });
  });
});

describe("settlementOf: Meta's answer to a write", () => {
  const fallbackMs = 300_000;
  it('a success is applied with a write', () => {
    expect(settlementOf({ ok: true }, now, fallbackMs)).toEqual({ state: 'applied', wrote: true });
  });

  it('a rate limit postpones by the announced wait, else the fallback', () => {
    const limited = classify(new MetaRateLimitError({ message: 'slow down', code: 80004, retryAfterMs: 120_000 }));
    expect(settlementOf(limited, now, fallbackMs)).toEqual({
      state: 'postponed',
      error: { code: 'meta_rate_limited', params: { metaCode: 80004, waitSeconds: 120 } },
      retryAt: new Date(now.getTime() + 120_000),
    });
    const unannounced = classify(new MetaRateLimitError({ message: 'slow down', code: 4 }));
    expect(settlementOf(unannounced, now, fallbackMs)).toMatchObject({
      state: 'postponed',
      retryAt: new Date(now.getTime() + fallbackMs),
    });
  });

  it('a transient failure postpones; a refusal fails with Meta’s words; an expired token asks to reconnect', () => {
    const transient = classify(new MetaTransientError({ message: 'try later', code: 2 }));
    expect(settlementOf(transient, now, fallbackMs)).toMatchObject({ state: 'postponed' });
    const refused = classify(new MetaInvalidParameterError({ message: 'Invalid budget', code: 100, subcode: 1885272 }));
    expect(settlementOf(refused, now, fallbackMs)).toEqual({
      state: 'failed',
      error: { code: 'meta_error', params: { message: 'Invalid budget', metaCode: 100, subcode: 1885272 } },
    });
    const expired = classify(new MetaTokenExpiredError({ message: 'expired', code: 190 }));
    expect(settlementOf(expired, now, fallbackMs)).toEqual({ state: 'failed', error: { code: 'reauth_required' } });
  });

  it('anything but a Meta error is not swallowed', () => {
    expect(() => classify(new TypeError('bug'))).toThrow(TypeError);
    expect(classify(new MetaApiError({ message: 'x', code: 1 })).kind).toBe('error');
  });
});

describe('timed holds', () => {
  const pausedAt = new Date('2026-11-26T10:30:00Z'); // 17:30 in Bangkok

  it('resumes some hours after the pause, or at the next local time of the account', () => {
    expect(holdResumeAt({ hours: 6 }, pausedAt, 'Asia/Bangkok')).toEqual(new Date('2026-11-26T16:30:00Z'));
    // The next midnight in Bangkok (UTC+7): 17:00 UTC the same day.
    expect(holdResumeAt({ atLocalTime: '00:00' }, pausedAt, 'Asia/Bangkok')).toEqual(new Date('2026-11-26T17:00:00Z'));
    // 18:00 is still ahead today; 17:30 itself is not: tomorrow's.
    expect(holdResumeAt({ atLocalTime: '18:00' }, pausedAt, 'Asia/Bangkok')).toEqual(new Date('2026-11-26T11:00:00Z'));
    expect(holdResumeAt({ atLocalTime: '17:30' }, pausedAt, 'Asia/Bangkok')).toEqual(new Date('2026-11-27T10:30:00Z'));
    // New York in winter is UTC−5.
    expect(holdResumeAt({ atLocalTime: '00:00' }, pausedAt, 'America/New_York')).toEqual(
      new Date('2026-11-27T05:00:00Z'),
    );
  });

  it('starts a hold for a pause the rule wrote (or may have, before a crash), not one found already paused', () => {
    expect(startsHold(row({ attempts: 1 }), { state: 'applied', wrote: true })).toBe(true);
    expect(startsHold(row({ attempts: 1 }), { state: 'applied', wrote: false })).toBe(false);
    expect(startsHold(row({ attempts: 2 }), { state: 'applied', wrote: false })).toBe(true);
    expect(startsHold(row({ attempts: 1, actionType: 'resume' }), { state: 'applied', wrote: true })).toBe(false);
  });

  it('skips a resume whose status was changed since the pause, and keeps every other outcome', () => {
    const resume = (attempts: number) =>
      row({ actionType: 'resume', beforeStatus: 'PAUSED', afterStatus: 'ACTIVE', attempts });
    const differs = { code: 'live_value_differs', params: { expected: 'PAUSED', found: 'ARCHIVED' } };
    expect(holdSettlement(resume(1), { state: 'failed', error: differs })).toEqual({
      state: 'skipped',
      error: { code: 'status_changed_since_pause', params: { expected: 'PAUSED', found: 'ARCHIVED' } },
    });
    expect(holdSettlement(resume(1), { state: 'applied', wrote: false })).toEqual({
      state: 'skipped',
      error: { code: 'status_changed_since_pause', params: { expected: 'PAUSED', found: 'ACTIVE' } },
    });
    // A later attempt finding it active: our own earlier write landed.
    expect(holdSettlement(resume(2), { state: 'applied', wrote: false })).toEqual({ state: 'applied', wrote: false });
    expect(holdSettlement(resume(1), { state: 'applied', wrote: true })).toEqual({ state: 'applied', wrote: true });
    const missing = { state: 'failed' as const, error: { code: 'entity_missing' } };
    expect(holdSettlement(resume(1), missing)).toEqual(missing);
  });
});
