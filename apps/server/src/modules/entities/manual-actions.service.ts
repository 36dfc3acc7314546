import { addDays, META_WRITE_SCOPE, type EntityActionItem, type EntityActionResult } from '@adpilot/contracts';
import type { TenantScope, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { AdMirrorService } from '../ad-accounts/ad-mirror.service.ts';
import type { EntityReadRow, EntityReadService } from '../ad-accounts/entity-read.service.ts';
import type { EntityKnowledgeService } from '../rules/runs/entity-knowledge.repository.ts';
import { budgetOf } from './entities.service.ts';
import { planManual, type ManualAccount, type ManualTarget } from './manual-plan.ts';

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
}

export interface ManualActionsDeps {
  transactions: Transactions;
  mirror: Pick<AdMirrorService, 'accounts'>;
  read: Pick<EntityReadService, 'find' | 'page'>;
  knowledge: Pick<EntityKnowledgeService, 'recentBudgetChangesIn'>;
  now: () => Date;
}

/** The Meta id of the entity holding a row's budget. */
function holderExternalId(row: EntityReadRow, holderId: string | null): string | null {
  if (holderId === null) return null;
  if (holderId === row.id) return row.externalId;
  if (row.campaign?.id === holderId) return row.campaign.externalId;
  if (row.adSet?.id === holderId) return row.adSet.externalId;
  return null;
}

/**
 * Pause, resume and budget changes by hand (issue 28), for a person or an agent. Today it decides each item on the
 * mirror (`dry_run`: the confirmation's from → to, Meta's four-an-hour limit counted from the ledger and from the
 * items before it in the same request, the account's minimum, read-only accounts refused with their code); the
 * ledger's write path for `apply` and the Inbox's for `propose` come next (ADR 0102).
 */
export class ManualActionsService {
  constructor(private readonly deps: ManualActionsDeps) {}

  async run(
    scope: TenantScope,
    items: readonly EntityActionItem[],
    options: ManualActionOptions,
  ): Promise<EntityActionResult[]> {
    if (options.mode !== 'dry_run')
      throw AppError.badRequest('Changes by hand are not written yet on this server: send dryRun: true for from → to');
    const now = this.deps.now();
    return this.deps.transactions.tenant(scope, async (tx) => {
      const found = new Map<string, { adAccountId: string; level: EntityReadRow['level'] }>();
      for (const item of items) {
        const entity = await this.deps.read.find(tx, item.entityId);
        if (entity) found.set(item.entityId, entity);
      }
      const accountIds = [...new Set([...found.values()].map((entity) => entity.adAccountId))];
      const accounts = await this.deps.mirror.accounts(tx, accountIds);
      const rows = new Map<string, EntityReadRow>();
      for (const level of new Set([...found.values()].map((entity) => entity.level))) {
        const ids = [...found].filter(([, entity]) => entity.level === level).map(([id]) => id);
        const today = now.toISOString().slice(0, 10);
        const windows = accounts.map((account) => ({
          adAccountId: account.id,
          from: today,
          to: today,
          previousFrom: addDays(today, -1),
          previousTo: addDays(today, -1),
        }));
        const page = await this.deps.read.page(
          tx,
          { level, windows, statuses: [], ids },
          { column: 'name', descending: false },
          null,
        );
        for (const row of page.rows) rows.set(row.id, row);
      }
      const byAccount = new Map(accounts.map((account) => [account.id, account]));
      // Meta's count per budget holder: the ledger's last hour, then each item of this request that would apply.
      const holders = new Map<string, Set<string>>();
      for (const row of rows.values()) {
        const account = byAccount.get(row.adAccountId);
        const holder = holderExternalId(row, budgetOf(row, account?.currency ?? 'USD').holderId);
        if (holder) holders.set(row.adAccountId, (holders.get(row.adAccountId) ?? new Set()).add(holder));
      }
      const recent = new Map<string, { count: number; oldestAt: Date | null }>();
      for (const [adAccountId, ids] of holders) {
        const counts = await this.deps.knowledge.recentBudgetChangesIn(
          tx,
          adAccountId,
          [...ids],
          new Date(now.getTime() - 3_600_000),
        );
        for (const [id, count] of counts) recent.set(`${adAccountId}|${id}`, count);
      }
      const holderKeys = new Map<string, string>();
      return items.map((item) => {
        const row = rows.get(item.entityId);
        const account = row ? byAccount.get(row.adAccountId) : undefined;
        const target: ManualTarget | undefined =
          row && account
            ? { id: row.id, status: row.status, budget: budgetOf(row, account.currency), currency: account.currency }
            : undefined;
        const manualAccount: ManualAccount | undefined = account
          ? {
              readOnly: account.missingScopes.includes(META_WRITE_SCOPE),
              needsReauth: account.needsReauth,
              minDailyBudget: account.minDailyBudget,
            }
          : undefined;
        const result = planManual(
          item,
          target,
          manualAccount,
          (holderId) => {
            const key = row ? `${row.adAccountId}|${holderExternalId(row, holderId) ?? holderId}` : holderId;
            holderKeys.set(item.entityId, key);
            return recent.get(key) ?? { count: 0, oldestAt: null };
          },
          now,
        );
        const key = holderKeys.get(item.entityId);
        if (result.outcome === 'would_apply' && result.field !== 'status' && key) {
          const counted = recent.get(key) ?? { count: 0, oldestAt: now };
          recent.set(key, { count: counted.count + 1, oldestAt: counted.oldestAt ?? now });
        }
        return result;
      });
    });
  }
}
