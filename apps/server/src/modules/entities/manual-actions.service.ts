import {
  toMajorUnits,
  type EntityActionItem,
  type EntityActionRefusalCode,
  type EntityActionResult,
} from '@adpilot/contracts';
import type { RuleActionRow, SystemTx, TenantScope, Transactions } from '@adpilot/db';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { ByHandAction, ByHandKey, HandWrites } from '../rules/index.ts';
import { budgetOf } from './entities.service.ts';
import {
  decideManual,
  holderOf,
  holdersByAccount,
  loadManualInputs,
  manualAccountOf,
  minorOf,
  type ManualDecision,
  type ManualInputs,
  type ManualReadDeps,
} from './manual-decisions.ts';

/** Who acts by hand: a member, or an agent's credential (an API token or OAuth grant) acting for its creator. */
export type ManualActor =
  { type: 'person'; userId: string } | { type: 'token'; credentialId: string; name: string; userId: string };

/**
 * `apply` writes through the ledger; `propose` leaves each change in the Inbox for a person; `dry_run` answers what
 * `apply` would do (from → to on the mirror's values, or why it is refused) and writes nothing.
 */
export type ManualMode = 'apply' | 'propose' | 'dry_run';

export interface ManualActionOptions {
  actor: ManualActor;
  mode: ManualMode;
  /** The request's key: the same actor sending it again finds its rows and writes nothing twice. */
  key?: string;
}

export interface ManualActionsDeps extends ManualReadDeps {
  transactions: Transactions;
  handWrites: Pick<HandWrites, 'readLive' | 'lockHoldersIn' | 'byKeyIn' | 'lastOfIn' | 'recordIn' | 'write'>;
  /** Members' names from their accounts (auth's profiles, on the system path): a person's name is never typed. */
  people: { profilesIn(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string }[]> };
  now: () => Date;
}

/** A change proposed by hand waits this long in the Inbox. */
export const HAND_PROPOSAL_HOURS = 72;

/** What the executor's failure code means for the person (its refusal code). */
const REFUSAL_OF: Record<string, EntityActionRefusalCode> = {
  live_value_differs: 'LIVE_VALUE_DIFFERS',
  meta_rate_limited: 'META_RATE_LIMITED',
  reauth_required: 'META_REAUTH_REQUIRED',
  read_only: 'AD_ACCOUNT_READ_ONLY',
  below_account_minimum: 'BELOW_ACCOUNT_MINIMUM',
  entity_missing: 'ENTITY_NOT_FOUND',
};

const SAME_CHANGE = (row: RuleActionRow) => `${row.entityExternalId}|${row.actionType}`;

/**
 * Pause, resume and budget changes by hand (issue 28, ADR 0102, 0160), for a person or an agent, through the rules'
 * ledger: each item decided on the live values read from Meta (the mirror's for a dry run), Meta's four budget
 * changes an hour counted under the holders' lock, recorded as ledger rows of the request's key, then written by the
 * rules' executor (at most once, the entry signed by the member) or left in the Inbox (`propose`).
 */
export class ManualActionsService {
  constructor(private readonly deps: ManualActionsDeps) {}

  async run(
    scope: TenantScope,
    items: readonly EntityActionItem[],
    options: ManualActionOptions,
  ): Promise<EntityActionResult[]> {
    const now = this.deps.now();
    const { transactions } = this.deps;
    if (options.mode === 'dry_run')
      return transactions.tenant(scope, async (tx) =>
        (await decideManual(this.deps, tx, items, await loadManualInputs(this.deps, tx, items, now), now)).map(
          (decision) => decision.result,
        ),
      );

    const key = await this.keyOf(options);
    const inputs = await transactions.tenant(scope, (tx) => loadManualInputs(this.deps, tx, items, now));
    const unread = await this.overlayLive(inputs);
    const { decisions, rows } = await transactions.tenant(scope, async (tx) => {
      for (const [adAccountId, holders] of [...holdersByAccount(inputs)].sort(([a], [b]) => a.localeCompare(b)))
        await this.deps.handWrites.lockHoldersIn(tx, adAccountId, [...holders]);
      const existing = new Set((await this.deps.handWrites.byKeyIn(tx, key)).map(SAME_CHANGE));
      const decisions = await decideManual(this.deps, tx, items, inputs, now);
      const actions = decisions.flatMap((decision) => {
        const action = this.actionOf(decision, options.mode, now);
        return action && !existing.has(`${action.entityExternalId}|${action.actionType}`) ? [action] : [];
      });
      return { decisions, rows: await this.deps.handWrites.recordIn(tx, inputs.accounts, key, actions, now) };
    });

    let settled = rows;
    if (options.mode === 'apply')
      for (const account of inputs.accounts.values()) {
        const planned = rows.filter((row) => row.adAccountId === account.id && row.state === 'planned');
        if (planned.length > 0)
          settled = await this.deps.handWrites.write(
            scope,
            account,
            key,
            planned.map((row) => row.id),
          );
      }
    const byChange = new Map(settled.map((row) => [SAME_CHANGE(row), row]));
    return decisions.map((decision) => {
      const code = unread.get(decision.item.entityId);
      if (code && decision.result.outcome === 'would_apply') return { ...decision.result, ...refusedAs(code) };
      const row = decision.row && byChange.get(`${decision.row.externalId}|${decision.item.type}`);
      return row ? resultOf(decision, row) : decision.result;
    });
  }

  /**
   * The campaign each item's entity belongs to in the mirror (its own id for a campaign), or null when the mirror
   * does not know it: what an agent's change is checked against its policy's protected campaigns by.
   */
  async campaignsOf(scope: TenantScope, items: readonly EntityActionItem[]): Promise<Map<string, string | null>> {
    const inputs = await this.deps.transactions.tenant(scope, (tx) =>
      loadManualInputs(this.deps, tx, items, this.deps.now()),
    );
    return new Map(
      items.map((item) => {
        const row = inputs.rows.get(item.entityId);
        return [item.entityId, row ? (row.level === 'campaign' ? row.id : (row.campaign?.id ?? null)) : null];
      }),
    );
  }

  /**
   * An agent's latest change of the item's entity with the item's action: its request key, its from → to (major
   * units or statuses) and when it was made; null when it has none. What a retry of a relative change is told by.
   */
  async lastAgentChange(
    scope: TenantScope,
    credentialId: string,
    item: EntityActionItem,
  ): Promise<{ key: string; from: number | string | null; to: number | string | null; at: Date } | null> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const inputs = await loadManualInputs(this.deps, tx, [item], this.deps.now());
      const row = inputs.rows.get(item.entityId);
      if (!row) return null;
      const last = await this.deps.handWrites.lastOfIn(
        tx,
        { actorType: 'agent', actorId: credentialId },
        row.externalId,
        item.type,
      );
      if (!last || !last.slot.startsWith('hand:')) return null;
      const major = (minor: number | null) => (minor === null ? null : toMajorUnits(minor, last.currency));
      const status = last.field === 'status';
      return {
        key: last.slot.slice('hand:'.length),
        from: status ? last.beforeStatus : major(last.beforeMinor),
        to: status ? last.afterStatus : major(last.afterMinor),
        at: last.createdAt,
      };
    });
  }

  /** The actor's key: who they are, their name from their record, and the request's key. */
  private async keyOf(options: ManualActionOptions): Promise<ByHandKey> {
    const slot = `hand:${options.key ?? randomUUID()}`;
    const { actor } = options;
    if (actor.type === 'token')
      return {
        actorType: 'agent',
        actorId: actor.credentialId,
        actorUserId: actor.userId,
        actorName: actor.name,
        slot,
      };
    const [person] = await this.deps.transactions.system('manual action actor', (tx) =>
      this.deps.people.profilesIn(tx, [actor.userId]),
    );
    if (!person) throw AppError.unauthorized();
    return { actorType: 'person', actorId: actor.userId, actorUserId: actor.userId, actorName: person.name, slot };
  }

  /**
   * Replaces the mirror's status and budgets of the items' entities (and their budget holders) by Meta's live
   * values; an entity Meta no longer has is dropped (not found). Answers the items whose account Meta did not
   * answer for, with the refusal that means.
   */
  private async overlayLive(inputs: ManualInputs): Promise<Map<string, EntityActionRefusalCode>> {
    const unread = new Map<string, EntityActionRefusalCode>();
    for (const account of inputs.accounts.values()) {
      const manual = manualAccountOf(account);
      if (manual.needsReauth || manual.readOnly) continue;
      const rows = [...inputs.rows.values()].filter((row) => row.adAccountId === account.id);
      const wanted = rows.flatMap((row) => {
        const holder = holderOf(row, budgetOf(row, account.currency).holderId);
        return [
          { id: row.externalId, field: 'status' as const },
          ...(holder
            ? [
                { id: holder.externalId, field: 'daily_budget' as const },
                { id: holder.externalId, field: 'lifetime_budget' as const },
              ]
            : []),
        ];
      });
      const read = await this.deps.handWrites.readLive(account, wanted);
      if (!read.ok) {
        for (const row of rows) unread.set(row.id, read.code);
        continue;
      }
      for (const row of rows) {
        const own = read.live.get(row.externalId);
        if (!own) {
          inputs.rows.delete(row.id);
          continue;
        }
        const budgetOfLive = <
          T extends { externalId: string; dailyBudget: number | null; lifetimeBudget: number | null },
        >(
          entity: T,
        ): T => {
          const live = read.live.get(entity.externalId);
          return live ? { ...entity, dailyBudget: live.dailyBudget, lifetimeBudget: live.lifetimeBudget } : entity;
        };
        inputs.rows.set(row.id, {
          ...budgetOfLive(row),
          status: own.status ?? row.status,
          campaign: row.campaign ? budgetOfLive(row.campaign) : null,
          adSet: row.adSet ? budgetOfLive(row.adSet) : null,
        });
      }
    }
    return unread;
  }

  /** The ledger row of a change that would apply: written now (`planned`) or proposed for the Inbox. */
  private actionOf(decision: ManualDecision, mode: ManualMode, now: Date): ByHandAction | null {
    const { row, account, result, item } = decision;
    if (result.outcome !== 'would_apply' || !row || !account || result.field === null) return null;
    const status = result.field === 'status';
    const target = status
      ? { level: row.level, externalId: row.externalId, name: row.name }
      : holderOf(row, result.targetId);
    if (!target) return null;
    return {
      adAccountId: account.id,
      actionType: item.type,
      entityLevel: row.level,
      entityExternalId: row.externalId,
      entityName: row.name,
      targetLevel: target.level,
      targetExternalId: target.externalId,
      targetName: target.name,
      holderReason: status
        ? null
        : target.externalId === row.externalId
          ? 'self'
          : target.level === 'campaign'
            ? 'campaign_budget'
            : 'adset_budget',
      field: result.field,
      currency: account.currency,
      beforeMinor: status ? null : minorOf(result.from, account.currency),
      afterMinor: status ? null : minorOf(result.to, account.currency),
      beforeStatus: status ? String(result.from) : null,
      afterStatus: status ? String(result.to) : null,
      explanation: { decision: 'matched', notJudged: null, settling: false, conditions: null },
      state: mode === 'propose' ? 'proposed' : 'planned',
      proposal: mode === 'propose' ? 'pending' : null,
      expiresAt: mode === 'propose' ? new Date(now.getTime() + HAND_PROPOSAL_HOURS * 3_600_000) : null,
    };
  }
}

function refusedAs(code: EntityActionRefusalCode): Partial<EntityActionResult> {
  return { outcome: 'refused', code, params: {} };
}

/** An item's outcome from its ledger row, from → to as recorded. */
function resultOf(decision: ManualDecision, row: RuleActionRow): EntityActionResult {
  const status = row.field === 'status';
  const major = (minor: number | null) => (minor === null ? null : toMajorUnits(minor, row.currency));
  const change = {
    from: status ? row.beforeStatus : major(row.beforeMinor),
    to: status ? row.afterStatus : major(row.afterMinor),
  };
  const base = { ...decision.result, ...change };
  if (row.state === 'applied' || row.state === 'reverted') return { ...base, outcome: 'applied', actionId: row.id };
  if (row.state === 'proposed') return { ...base, outcome: 'proposed', proposalId: row.id, actionId: row.id };
  if (row.state === 'planned' || row.state === 'postponed') return { ...base, ...refusedAs('IN_PROGRESS') };
  const code = REFUSAL_OF[row.error?.code ?? ''] ?? 'META_ERROR';
  return { ...base, ...refusedAs(code), params: paramsOf(row), actionId: row.id };
}

function paramsOf(row: RuleActionRow): NonNullable<EntityActionResult['params']> {
  const params = row.error?.params ?? {};
  return Object.fromEntries(
    Object.entries(params).filter(
      (entry): entry is [string, string | number | boolean | null] =>
        entry[1] === null || ['string', 'number', 'boolean'].includes(typeof entry[1]),
    ),
  );
}
