import {
  addDays,
  META_WRITE_SCOPE,
  toMinorUnits,
  type EntityActionItem,
  type EntityActionResult,
} from '@adpilot/contracts';
import type { AdAccountRow, TenantTx } from '@adpilot/db';
import type { AdMirrorService, EntityReadRow, EntityReadService } from '../ad-accounts/index.ts';
import type { EntityKnowledgeService } from '../rules/index.ts';
import { budgetOf } from './entities.service.ts';
import { planManual, type ManualAccount, type ManualTarget } from './manual-plan.ts';

export interface ManualReadDeps {
  mirror: Pick<AdMirrorService, 'accounts'>;
  read: Pick<EntityReadService, 'find' | 'page'>;
  knowledge: Pick<EntityKnowledgeService, 'recentBudgetChangesIn'>;
}

/** The items' entities as the mirror holds them (our id → row) and their accounts (id → row). */
export interface ManualInputs {
  rows: Map<string, EntityReadRow>;
  accounts: Map<string, AdAccountRow>;
}

/** One item decided: its entity and account when found, and the decision (would apply, or refused and why). */
export interface ManualDecision {
  item: EntityActionItem;
  row: EntityReadRow | undefined;
  account: AdAccountRow | undefined;
  result: EntityActionResult;
}

/** The entity holding a row's budget: itself or a parent, with its Meta id and name. */
export function holderOf(
  row: EntityReadRow,
  holderId: string | null,
): { level: 'campaign' | 'adset' | 'ad'; externalId: string; name: string } | null {
  if (holderId === null) return null;
  if (holderId === row.id) return { level: row.level, externalId: row.externalId, name: row.name };
  if (row.campaign?.id === holderId) return { level: 'campaign', ...row.campaign };
  if (row.adSet?.id === holderId) return { level: 'adset', ...row.adSet };
  return null;
}

export function manualAccountOf(account: AdAccountRow): ManualAccount {
  return {
    readOnly: account.missingScopes.includes(META_WRITE_SCOPE),
    needsReauth: account.needsReauth,
    minDailyBudget: account.minDailyBudget,
  };
}

/** Reads the items' entities (each level's rows in one page) and their accounts, in the caller's unit of work. */
export async function loadManualInputs(
  deps: ManualReadDeps,
  tx: TenantTx,
  items: readonly EntityActionItem[],
  now: Date,
): Promise<ManualInputs> {
  const found = new Map<string, { adAccountId: string; level: EntityReadRow['level'] }>();
  for (const item of items) {
    const entity = await deps.read.find(tx, item.entityId);
    if (entity) found.set(item.entityId, entity);
  }
  const accountIds = [...new Set([...found.values()].map((entity) => entity.adAccountId))];
  const accounts = await deps.mirror.accounts(tx, accountIds);
  const rows = new Map<string, EntityReadRow>();
  const today = now.toISOString().slice(0, 10);
  const windows = accounts.map((account) => ({
    adAccountId: account.id,
    from: today,
    to: today,
    previousFrom: addDays(today, -1),
    previousTo: addDays(today, -1),
  }));
  for (const level of new Set([...found.values()].map((entity) => entity.level))) {
    const ids = [...found].filter(([, entity]) => entity.level === level).map(([id]) => id);
    const page = await deps.read.page(
      tx,
      { level, windows, statuses: [], ids },
      { column: 'name', descending: false },
      null,
    );
    for (const row of page.rows) rows.set(row.id, row);
  }
  return { rows, accounts: new Map(accounts.map((account) => [account.id, account])) };
}

/** Each account's budget holders (Meta ids) among the rows. */
export function holdersByAccount(inputs: ManualInputs): Map<string, Set<string>> {
  const holders = new Map<string, Set<string>>();
  for (const row of inputs.rows.values()) {
    const account = inputs.accounts.get(row.adAccountId);
    const holder = holderOf(row, budgetOf(row, account?.currency ?? 'USD').holderId);
    if (holder) holders.set(row.adAccountId, (holders.get(row.adAccountId) ?? new Set()).add(holder.externalId));
  }
  return holders;
}

/**
 * Decides every item (manual-plan.ts) on the inputs given (the mirror's for a dry run, the live values for a
 * write), Meta's four budget changes an hour counted from the ledger's last hour and from the items before it in
 * the same request. The caller that writes holds the holders' lock in `tx` first, so the count stays true.
 */
export async function decideManual(
  deps: ManualReadDeps,
  tx: TenantTx,
  items: readonly EntityActionItem[],
  inputs: ManualInputs,
  now: Date,
): Promise<ManualDecision[]> {
  const recent = new Map<string, { count: number; oldestAt: Date | null }>();
  for (const [adAccountId, ids] of holdersByAccount(inputs)) {
    const counts = await deps.knowledge.recentBudgetChangesIn(
      tx,
      adAccountId,
      [...ids],
      new Date(now.getTime() - 3_600_000),
    );
    for (const [id, count] of counts) recent.set(`${adAccountId}|${id}`, count);
  }
  return items.map((item) => {
    const row = inputs.rows.get(item.entityId);
    const account = row ? inputs.accounts.get(row.adAccountId) : undefined;
    const target: ManualTarget | undefined =
      row && account
        ? { id: row.id, status: row.status, budget: budgetOf(row, account.currency), currency: account.currency }
        : undefined;
    let key: string | undefined;
    const result = planManual(
      item,
      target,
      account ? manualAccountOf(account) : undefined,
      (holderId) => {
        key = row ? `${row.adAccountId}|${holderOf(row, holderId)?.externalId ?? holderId}` : holderId;
        return recent.get(key) ?? { count: 0, oldestAt: null };
      },
      now,
    );
    if (result.outcome === 'would_apply' && result.field !== 'status' && key) {
      const counted = recent.get(key) ?? { count: 0, oldestAt: now };
      recent.set(key, { count: counted.count + 1, oldestAt: counted.oldestAt ?? now });
    }
    return { item, row, account, result };
  });
}

/** A decided budget's figures in Meta's minor units. */
export function minorOf(value: string | number | null, currency: string): number | null {
  return typeof value === 'number' ? toMinorUnits(value, currency) : null;
}
