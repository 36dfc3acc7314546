import type { AdAccountRow, AutomationRuleRow, CodedText, RuleActionRow, RuleRunRow } from '@adpilot/db';
import { META_WRITE_SCOPE, toMajorUnits } from '@adpilot/contracts';
import type { MetaApiError } from '@adpilot/meta';
import type { SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/activity.repository.ts';
import { actionActivity } from './rule-activity.ts';
import type { RuleInputsRepository } from './rule-inputs.repository.ts';
import type { RuleLedgerRepository } from './rule-ledger.repository.ts';
import type { RulesRepository } from './rules.repository.ts';
import type { Transactions } from '@adpilot/db';
import {
  classify,
  liveValue,
  mirrorChange,
  type EntityWrite,
  type LiveField,
  type RuleMetaGateway,
  type WriteOutcome,
} from './rule-meta.ts';

/** What writing a change to Meta and recording it takes: the executor's runs and a revert both need it. */
export interface RuleWriteDeps {
  db: Transactions;
  rules: RulesRepository;
  ledger: RuleLedgerRepository;
  inputs: RuleInputsRepository;
  activity: ActivityRepository;
  gateway: RuleMetaGateway;
  secretBox: SecretBox;
  now: () => Date;
}

export interface ExecutorDeps extends RuleWriteDeps {
  /** How long a claimed row is ours to write; a crashed worker's rows are taken again after it. */
  leaseMs: number;
  /** How long a rate-limited write waits when Meta did not say. */
  rateLimitFallbackMs: number;
  /**
   * Called between Meta's answer and the ledger's record of it: the window a crash leaves a change written but
   * not recorded. The crash test kills its worker here.
   */
  afterWrite?: () => Promise<void> | void;
}

export interface AccountOutcome {
  applied: number;
  failed: number;
  postponed: number;
  /** The earliest moment a postponed row may be tried again. */
  retryAt?: Date;
}

type Settlement =
  | { state: 'applied'; wrote: boolean }
  | { state: 'failed'; error: CodedText }
  | { state: 'postponed'; error: CodedText; retryAt: Date };

function target(row: RuleActionRow): string | number | null {
  return row.field === 'status' ? row.afterStatus : row.afterMinor;
}

function before(row: RuleActionRow): string | number | null {
  return row.field === 'status' ? row.beforeStatus : row.beforeMinor;
}

/**
 * A budget (daily, or lifetime: never under one day's minimum) under the account's known minimum daily budget
 * (Meta's `min_daily_budget`): Meta would refuse it (100/1885272), so it is never sent. The engine does not plan
 * one; this catches rows planned before the minimum was known or rose (ADR 0055).
 */
function belowMinimum(row: RuleActionRow, account: AdAccountRow): CodedText | null {
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

function metaError(error: MetaApiError): CodedText {
  return {
    code: 'meta_error',
    params: { message: error.message, metaCode: error.code, subcode: error.subcode ?? null },
  };
}

/**
 * Writes the ledger rows of one run and account to Meta, at most once each: rows are claimed under a lease, the
 * live value is read just before writing, a row whose entity already has the target value (a write that landed
 * before a crash) is marked applied without writing again, and a rate limit postpones the row, never drops it.
 */
export class RuleExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async executeAccount(run: RuleRunRow, rule: AutomationRuleRow, account: AdAccountRow): Promise<AccountOutcome> {
    const { db, ledger, now, leaseMs } = this.deps;
    const started = now();
    const rows = await db.tenant(run.userId, (tx) =>
      ledger.claimPending(tx, run.id, account.id, started, new Date(started.getTime() + leaseMs)),
    );
    const outcome: AccountOutcome = { applied: 0, failed: 0, postponed: 0 };
    if (rows.length === 0) return outcome;

    const settlements = await this.decide(account, rows);
    for (const row of rows) {
      const settlement = settlements.get(row.id) ?? {
        state: 'failed' as const,
        error: { code: 'meta_error', params: { message: 'No answer for this change' } },
      };
      await this.settle(rule, account, row, settlement);
      outcome[settlement.state] += 1;
      if (settlement.state === 'postponed' && (!outcome.retryAt || settlement.retryAt < outcome.retryAt))
        outcome.retryAt = settlement.retryAt;
    }
    return outcome;
  }

  private async decide(account: AdAccountRow, rows: RuleActionRow[]): Promise<Map<string, Settlement>> {
    const settlements = new Map<string, Settlement>();
    const writesRows = rows.filter((row) => row.field !== null);
    for (const row of rows) if (row.field === null) settlements.set(row.id, { state: 'applied', wrote: false });
    if (writesRows.length === 0) return settlements;
    if (account.needsReauth) {
      for (const row of writesRows) settlements.set(row.id, { state: 'failed', error: { code: 'reauth_required' } });
      return settlements;
    }
    // Connected without "manage ads": Meta would refuse every write, so none is attempted (ADR 11).
    if (account.missingScopes.includes(META_WRITE_SCOPE)) {
      for (const row of writesRows) settlements.set(row.id, { state: 'failed', error: { code: 'read_only' } });
      return settlements;
    }

    const sendable: RuleActionRow[] = [];
    for (const row of writesRows) {
      const refusal = belowMinimum(row, account);
      if (refusal) settlements.set(row.id, { state: 'failed', error: refusal });
      else sendable.push(row);
    }
    if (sendable.length === 0) return settlements;

    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const writes: { row: RuleActionRow; write: EntityWrite }[] = [];
    try {
      const live = await this.deps.gateway.readLive(
        token,
        sendable.map((row) => ({ id: row.targetExternalId, field: row.field as LiveField })),
      );
      for (const row of sendable) {
        const entity = live.get(row.targetExternalId);
        const field = row.field as LiveField;
        const wanted = target(row);
        if (!entity || wanted === null) {
          settlements.set(row.id, { state: 'failed', error: { code: 'entity_missing' } });
          continue;
        }
        const current = liveValue(entity, field);
        if (current === wanted) {
          // Meta already has the value: a write that landed before a crash, or someone made the same change.
          settlements.set(row.id, { state: 'applied', wrote: false });
        } else if (current !== before(row)) {
          // Someone changed it since the plan: writing a target computed from the old value could undo their change.
          settlements.set(row.id, {
            state: 'failed',
            error: { code: 'live_value_differs', params: { expected: before(row), found: current } },
          });
        } else {
          writes.push({ row, write: { id: row.targetExternalId, field, value: wanted } });
        }
      }
      const answers = await this.deps.gateway.write(
        token,
        writes.map((item) => item.write),
      );
      writes.forEach((item, index) => settlements.set(item.row.id, this.fromAnswer(answers[index])));
      await this.deps.afterWrite?.();
    } catch (error) {
      // The read or the whole batch failed: nothing is known of the writes, so they wait for a later attempt,
      // which reads the live value again before deciding.
      const failure = classify(error);
      const pending =
        writes.length > 0 ? writes.map((item) => item.row) : sendable.filter((row) => !settlements.has(row.id));
      for (const row of pending) settlements.set(row.id, this.fromAnswer(failure));
    }
    return settlements;
  }

  private fromAnswer(answer: WriteOutcome | undefined): Settlement {
    if (!answer || answer.ok) return { state: 'applied', wrote: true };
    if (answer.kind === 'rate_limited' || (answer.kind === 'error' && answer.error.isTransient)) {
      const waitMs =
        answer.kind === 'rate_limited'
          ? (answer.retryAfterMs ?? this.deps.rateLimitFallbackMs)
          : this.deps.rateLimitFallbackMs;
      return {
        state: 'postponed',
        error: {
          code: 'meta_rate_limited',
          params: { metaCode: answer.error.code, waitSeconds: Math.ceil(waitMs / 1000) },
        },
        retryAt: new Date(this.deps.now().getTime() + waitMs),
      };
    }
    if (answer.kind === 'reauth') return { state: 'failed', error: { code: 'reauth_required' } };
    return { state: 'failed', error: metaError(answer.error) };
  }

  /** The outcome, its activity entry and the rule's `lastTriggered` commit together. */
  private async settle(
    rule: AutomationRuleRow,
    account: AdAccountRow,
    row: RuleActionRow,
    settlement: Settlement,
  ): Promise<void> {
    const at = this.deps.now();
    const { ledger, rules, activity } = this.deps;
    await this.deps.db.tenant(row.userId, async (tx) => {
      if (settlement.state === 'applied') {
        await ledger.settle(tx, row.id, { state: 'applied', at });
        await rules.touchTriggered(tx, rule.id, at);
        const value = target(row);
        if (row.field !== null && value !== null)
          await this.deps.inputs.recordWrite(
            tx,
            row.adAccountId,
            row.targetExternalId,
            mirrorChange(row.field as LiveField, value),
          );
      } else if (settlement.state === 'failed') {
        await ledger.settle(tx, row.id, { state: 'failed', at, error: settlement.error });
      } else {
        await ledger.settle(tx, row.id, {
          state: 'postponed',
          at,
          error: settlement.error,
          retryAt: settlement.retryAt,
        });
      }
      const error = settlement.state === 'applied' ? undefined : settlement.error;
      await activity.insert(tx, actionActivity(rule, account, row, settlement.state, error));
    });
  }
}
