import type { AdAccountRow, RuleActionRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import type { MetaClient } from '@adpilot/meta';
import type { SecretBox } from '../../../lib/crypto.ts';
import type { ActivityRepository } from '../../activity/index.ts';
import { handActivity } from './rule-activity.ts';
import type { RuleExecutor } from './rule-executor.ts';
import type { ByHandAction, ByHandKey, RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import { classify, type LiveField, type LiveValues } from './rule-meta.ts';

export type { ByHandAction, ByHandKey } from '../ledger/rule-ledger.repository.ts';

/** Meta's live values, or the refusal a failed read means for every change of the account. */
export type LiveRead =
  | { ok: true; live: Map<string, LiveValues> }
  | { ok: false; code: 'META_RATE_LIMITED' | 'META_REAUTH_REQUIRED' | 'META_ERROR' };

export interface HandWritesDeps {
  transactions: Transactions;
  ledger: RuleLedgerRepository;
  executor: RuleExecutor;
  activity: ActivityRepository;
  metaClient: () => MetaClient;
  secretBox: SecretBox;
}

/**
 * The ledger's path for changes by hand (a person's or an agent's; ADR 0160), handed to the explorer's manual
 * actions: read the live values, record the rows of one request under the budget holders' lock, write them through
 * the rules' executor (lease, live value again, at most once, entry signed by the member), or leave them in the
 * Inbox. Reverts go through the rules' revert route like any ledger row.
 */
export class HandWrites {
  constructor(private readonly deps: HandWritesDeps) {}

  /**
   * The targets' values as Meta has them now, read through the Meta client as the executor reads them (an entity
   * Meta no longer has is absent), or why Meta did not answer.
   */
  async readLive(account: AdAccountRow, wanted: readonly { id: string; field: LiveField }[]): Promise<LiveRead> {
    if (wanted.length === 0) return { ok: true, live: new Map() };
    try {
      const live = await this.deps
        .metaClient()
        .readLiveValues(this.deps.secretBox.decrypt(account.accessTokenEnc), account.facebookAccountId, wanted);
      return { ok: true, live };
    } catch (error) {
      const failure = classify(error);
      return {
        ok: false,
        code:
          failure.kind === 'rate_limited'
            ? 'META_RATE_LIMITED'
            : failure.kind === 'reauth'
              ? 'META_REAUTH_REQUIRED'
              : 'META_ERROR',
      };
    }
  }

  /** Holds the account's budget holders until `tx` ends: count and record under it (`RuleLedgerRepository`). */
  lockHoldersIn(tx: TenantTx, adAccountId: string, targetExternalIds: readonly string[]): Promise<void> {
    return this.deps.ledger.lockHolders(tx, adAccountId, targetExternalIds);
  }

  /** An actor's latest change by hand of an entity with an action (what a retry of it started from). */
  lastOfIn(
    tx: TenantTx,
    actor: Pick<ByHandKey, 'actorType' | 'actorId'>,
    entityExternalId: string,
    actionType: string,
  ): Promise<RuleActionRow | undefined> {
    return this.deps.ledger.lastByHandOf(tx, actor, entityExternalId, actionType);
  }

  /** The rows a request key already has (a repeated request answers from them). */
  byKeyIn(tx: TenantTx, key: ByHandKey): Promise<RuleActionRow[]> {
    return this.deps.ledger.byHandOf(tx, key);
  }

  /**
   * Records the request's changes (`planned`, or `proposed` for the Inbox, each proposal logged); answers every row
   * of the key.
   */
  async recordIn(
    tx: TenantTx,
    accounts: ReadonlyMap<string, Pick<AdAccountRow, 'id' | 'facebookAccountId'>>,
    key: ByHandKey,
    rows: readonly ByHandAction[],
    at: Date,
  ): Promise<RuleActionRow[]> {
    const before = new Set((await this.deps.ledger.byHandOf(tx, key)).map((row) => row.id));
    const recorded = await this.deps.ledger.planByHand(tx, key, rows, at);
    for (const row of recorded) {
      const account = accounts.get(row.adAccountId);
      if (!before.has(row.id) && row.state === 'proposed' && account)
        await this.deps.activity.insert(tx, handActivity(account, row, 'proposed'));
    }
    return recorded;
  }

  /** Writes planned rows of one account now, signed by `scope`'s member; answers them as settled. */
  async write(scope: TenantScope, account: AdAccountRow, key: ByHandKey, rowIds: readonly string[]) {
    await this.deps.executor.executeByHand(scope, account, rowIds);
    return this.deps.transactions.tenant(scope, (tx) => this.deps.ledger.byHandOf(tx, key));
  }
}
