import type { WorldData } from './build-world.ts';
import { DELIVERING_ACCOUNT_STATUSES } from './seed.ts';
import type {
  BudgetChange,
  ConfiguredStatus,
  Mutation,
  SandboxAccount,
  SandboxAd,
  SandboxAdSet,
  SandboxCampaign,
  SandboxEntity,
  SandboxPersona,
  MutationBefore,
  StatusChange,
} from './types.ts';

/** Keeps a time-ordered log ordered even if a test clock moves backwards between writes. */
function insertByTime<T extends { at: number }>(log: T[], entry: T): void {
  let index = log.length;
  while (index > 0 && (log[index - 1]?.at ?? 0) > entry.at) index--;
  log.splice(index, 0, entry);
}

function latestAt<T extends { at: number }>(log: readonly T[], instant: number): T | undefined {
  let found: T | undefined;
  for (const entry of log) {
    if (entry.at > instant) break;
    found = entry;
  }
  return found;
}

export function statusAt(log: readonly StatusChange[], instant: number): ConfiguredStatus | undefined {
  return latestAt(log, instant)?.status;
}

export function budgetAt(log: readonly BudgetChange[], instant: number): BudgetChange | undefined {
  return latestAt(log, instant);
}

/**
 * The sandbox's world: seeded entities plus the writes applied since. Entities keep their whole status and
 * budget history, so the metric model can ask what was true at any instant.
 */
export class World {
  readonly seedKey: number;
  readonly anchor: number;
  readonly historyStart: number;
  readonly personas: readonly SandboxPersona[];
  readonly accounts: ReadonlyMap<string, SandboxAccount>;
  readonly campaigns: ReadonlyMap<string, SandboxCampaign>;
  readonly adSets: ReadonlyMap<string, SandboxAdSet>;
  readonly ads: ReadonlyMap<string, SandboxAd>;
  /** Bumped on every write so caches of derived numbers know when to drop. */
  revision = 0;

  constructor(data: WorldData) {
    this.seedKey = data.seedKey;
    this.anchor = data.anchor;
    this.historyStart = data.historyStart;
    this.personas = data.personas;
    this.accounts = data.accounts;
    this.campaigns = data.campaigns;
    this.adSets = data.adSets;
    this.ads = data.ads;
  }

  persona(id: string): SandboxPersona | undefined {
    return this.personas.find((persona) => persona.id === id);
  }

  /** Accepts 123 or act_123. */
  account(id: string): SandboxAccount | undefined {
    return this.accounts.get(id.startsWith('act_') ? id.slice(4) : id);
  }

  findEntity(id: string): SandboxEntity | undefined {
    const campaign = this.campaigns.get(id);
    if (campaign) return { kind: 'campaign', entity: campaign };
    const adSet = this.adSets.get(id);
    if (adSet) return { kind: 'adset', entity: adSet };
    const ad = this.ads.get(id);
    if (ad) return { kind: 'ad', entity: ad };
    return undefined;
  }

  campaignOf(entity: SandboxAdSet | SandboxAd): SandboxCampaign {
    return this.required(this.campaigns.get(entity.campaignId), entity.campaignId);
  }

  adSetOf(ad: SandboxAd): SandboxAdSet {
    return this.required(this.adSets.get(ad.adSetId), ad.adSetId);
  }

  accountOf(entity: { accountId: string }): SandboxAccount {
    return this.required(this.accounts.get(entity.accountId), entity.accountId);
  }

  campaignsOf(account: SandboxAccount): SandboxCampaign[] {
    return account.campaignIds.map((id) => this.required(this.campaigns.get(id), id));
  }

  adSetsOf(campaign: SandboxCampaign): SandboxAdSet[] {
    return campaign.adSetIds.map((id) => this.required(this.adSets.get(id), id));
  }

  adsOf(adSet: SandboxAdSet): SandboxAd[] {
    return adSet.adIds.map((id) => this.required(this.ads.get(id), id));
  }

  accountAdSets(account: SandboxAccount): SandboxAdSet[] {
    return this.campaignsOf(account).flatMap((campaign) => this.adSetsOf(campaign));
  }

  accountAds(account: SandboxAccount): SandboxAd[] {
    return this.accountAdSets(account).flatMap((adSet) => this.adsOf(adSet));
  }

  isAccountDelivering(account: SandboxAccount, instant: number): boolean {
    return DELIVERING_ACCOUNT_STATUSES.has(account.accountStatus) || instant < account.statusSince;
  }

  effectiveStatus(target: SandboxEntity, instant: number): string {
    const own = statusAt(target.entity.statusLog, instant) ?? 'PAUSED';
    if (own !== 'ACTIVE') return own;
    if (target.kind !== 'campaign') {
      const campaign = statusAt(this.campaignOf(target.entity).statusLog, instant);
      if (campaign === 'ARCHIVED' || campaign === 'DELETED') return campaign;
      if (campaign === 'PAUSED') return 'CAMPAIGN_PAUSED';
    }
    if (target.kind === 'ad') {
      const adSet = statusAt(this.adSetOf(target.entity).statusLog, instant);
      if (adSet === 'ARCHIVED' || adSet === 'DELETED') return adSet;
      if (adSet === 'PAUSED') return 'ADSET_PAUSED';
    }
    return target.entity.review ?? 'ACTIVE';
  }

  /** Whether an ad can spend at an instant: it, its parents and its account all allow delivery. */
  isAdDelivering(ad: SandboxAd, instant: number): boolean {
    return (
      instant >= ad.createdTime &&
      this.isAccountDelivering(this.accountOf(ad), instant) &&
      this.effectiveStatus({ kind: 'ad', entity: ad }, instant) === 'ACTIVE'
    );
  }

  /** What a write to `objectId` at `instant` replaces: the fields it sets, as they were just before. */
  valuesBefore(mutation: Mutation): MutationBefore {
    const target = this.findEntity(mutation.objectId);
    if (!target) return {};
    const before: MutationBefore = {};
    const status = statusAt(target.entity.statusLog, mutation.at);
    if (mutation.status !== undefined && status !== undefined) before.status = status;
    if (target.kind !== 'ad' && (mutation.dailyBudget !== undefined || mutation.lifetimeBudget !== undefined)) {
      const budget = budgetAt(target.entity.budgetLog, mutation.at);
      if (budget?.dailyBudget !== undefined) before.dailyBudget = budget.dailyBudget;
      if (budget?.lifetimeBudget !== undefined) before.lifetimeBudget = budget.lifetimeBudget;
    }
    return before;
  }

  apply(mutation: Mutation): void {
    const target = this.findEntity(mutation.objectId);
    if (!target) return;
    const { entity } = target;
    if (mutation.status) insertByTime(entity.statusLog, { at: mutation.at, status: mutation.status });
    if (target.kind !== 'ad' && (mutation.dailyBudget !== undefined || mutation.lifetimeBudget !== undefined)) {
      const change: BudgetChange = { at: mutation.at };
      if (mutation.dailyBudget !== undefined) change.dailyBudget = mutation.dailyBudget;
      if (mutation.lifetimeBudget !== undefined) change.lifetimeBudget = mutation.lifetimeBudget;
      insertByTime(target.entity.budgetLog, change);
    }
    entity.updatedTime = Math.max(entity.updatedTime, mutation.at);
    this.revision++;
  }

  private required<T>(value: T | undefined, id: string): T {
    if (value === undefined) throw new Error(`sandbox world is inconsistent: ${id} is missing`);
    return value;
  }
}
