import { AD_NAMES, AD_SET_NAMES, CAMPAIGN_NAMES, cycleName } from './names.ts';
import { createRng, hashString, type Rng } from './random.ts';
import {
  DEFAULT_HISTORY_DAYS,
  DELIVERING_ACCOUNT_STATUSES,
  currencyOffset,
  defaultSeed,
  priceLevel,
  type AccountSeed,
  type SandboxSeed,
} from './seed.ts';
import { DAY_MS, HOUR_MS } from './time-zone.ts';
import type {
  AdProfile,
  BudgetChange,
  Objective,
  SandboxAccount,
  SandboxAd,
  SandboxAdSet,
  SandboxCampaign,
  SandboxPersona,
  ReviewStatus,
  StatusChange,
} from './types.ts';

export interface WorldData {
  seedKey: number;
  /** UTC midnight of the anchor day: seeded history is laid out backwards from here. */
  anchor: number;
  historyStart: number;
  personas: SandboxPersona[];
  accounts: Map<string, SandboxAccount>;
  campaigns: Map<string, SandboxCampaign>;
  adSets: Map<string, SandboxAdSet>;
  ads: Map<string, SandboxAd>;
}

const OBJECTIVE_CYCLE: readonly Objective[] = [
  'OUTCOME_SALES',
  'OUTCOME_SALES',
  'OUTCOME_TRAFFIC',
  'OUTCOME_LEADS',
  'OUTCOME_AWARENESS',
];

const OPTIMIZATION_GOAL: Record<Objective, string> = {
  OUTCOME_SALES: 'OFFSITE_CONVERSIONS',
  OUTCOME_TRAFFIC: 'LANDING_PAGE_VIEWS',
  OUTCOME_LEADS: 'LEAD_GENERATION',
  OUTCOME_AWARENESS: 'REACH',
};

/** Share of link clicks that convert, per objective: sales campaigns buy, awareness ones barely do. */
const CONVERSION_RATE: Record<Objective, [number, number]> = {
  OUTCOME_SALES: [0.015, 0.045],
  OUTCOME_TRAFFIC: [0.003, 0.01],
  OUTCOME_LEADS: [0.05, 0.12],
  OUTCOME_AWARENESS: [0.001, 0.004],
};

/** A budget in minor units, rounded to two significant figures of the major unit as people type them. */
function niceBudget(usd: number, currency: string): number {
  const major = usd * priceLevel(currency);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(major)) - 1);
  return Math.round(major / magnitude) * magnitude * currencyOffset(currency);
}

const REVIEW_STATES: readonly ReviewStatus[] = ['DISAPPROVED', 'PENDING_REVIEW', 'WITH_ISSUES', 'IN_PROCESS'];

class WorldBuilder {
  private readonly usedIds = new Set<string>();
  private readonly lifecycleAccounts: SandboxAccount[] = [];
  readonly data: WorldData;

  constructor(
    private readonly rng: Rng,
    seedKey: number,
    anchor: number,
    private readonly historyDays: number,
  ) {
    this.data = {
      seedKey,
      anchor,
      historyStart: anchor - historyDays * DAY_MS,
      personas: [],
      accounts: new Map(),
      campaigns: new Map(),
      adSets: new Map(),
      ads: new Map(),
    };
  }

  private uniqueId(prefix: string, digits: number, wanted?: string): string {
    let id = wanted ?? prefix + this.rng.digits(digits);
    while (this.usedIds.has(id)) {
      if (wanted) throw new Error(`sandbox seed: duplicate id ${wanted}`);
      id = prefix + this.rng.digits(digits);
    }
    this.usedIds.add(id);
    return id;
  }

  /** An instant inside the seeded history, at least `minDaysAgo` days before the anchor. */
  private historyMoment(minDaysAgo: number): number {
    const maxDaysAgo = Math.max(minDaysAgo, this.historyDays - 3);
    return this.data.anchor - this.rng.integer(minDaysAgo, maxDaysAgo) * DAY_MS + this.rng.integer(7, 20) * HOUR_MS;
  }

  private statusLog(created: number, pause: boolean): StatusChange[] {
    const log: StatusChange[] = [{ at: created, status: 'ACTIVE' }];
    if (pause) log.push({ at: this.historyMoment(2), status: 'PAUSED' });
    return log;
  }

  /** Budgets sometimes moved during the seeded history, as they do in real accounts. */
  private dailyBudgetLog(created: number, dailyBudget: number): BudgetChange[] {
    const log: BudgetChange[] = [{ at: created, dailyBudget }];
    if (this.rng.next() < 0.35) {
      const step = dailyBudget >= 1000 ? 100 : 1;
      const changed = Math.round((dailyBudget * this.rng.between(0.7, 1.6)) / step) * step;
      log.push({ at: this.historyMoment(3), dailyBudget: Math.max(step, changed) });
    }
    return log;
  }

  addPersona(seed: { id?: string; name: string; businessName?: string; accounts: AccountSeed[] }): void {
    const persona: SandboxPersona = {
      id: this.uniqueId('1000', 11, seed.id),
      name: seed.name,
      businessId: this.uniqueId('1', 14),
      businessName: seed.businessName ?? `${seed.name} Business`,
      accountIds: [],
    };
    this.data.personas.push(persona);
    for (const accountSeed of seed.accounts) persona.accountIds.push(this.addAccount(persona, accountSeed));
  }

  private addAccount(persona: SandboxPersona, seed: AccountSeed): string {
    const { anchor, historyStart } = this.data;
    const accountStatus = seed.accountStatus ?? 1;
    const account: SandboxAccount = {
      id: this.uniqueId('', 15, seed.id),
      personaId: persona.id,
      name: seed.name,
      currency: seed.currency,
      timezone: seed.timezone,
      accountStatus,
      disableReason: seed.disableReason ?? 0,
      statusSince: DELIVERING_ACCOUNT_STATUSES.has(accountStatus)
        ? historyStart
        : anchor - (seed.statusSinceDays ?? 7) * DAY_MS + 10 * HOUR_MS,
      minDailyBudget: Math.max(1, Math.round(priceLevel(seed.currency) * currencyOffset(seed.currency))),
      createdTime: historyStart - this.rng.integer(30, 600) * DAY_MS - this.rng.integer(0, 23) * HOUR_MS,
      campaignIds: [],
    };
    this.data.accounts.set(account.id, account);
    if (seed.lifecycleExamples) this.lifecycleAccounts.push(account);

    const campaignCount = seed.campaigns ?? 4;
    const cboCount = Math.min(seed.cboCampaigns ?? 1, campaignCount);
    const cboIndexes = new Set(Array.from({ length: cboCount }, (_, k) => (1 + k) % campaignCount));
    const nameCounters = new Map<Objective, number>();
    const counters = { adSets: 0, ads: 0 };
    for (let index = 0; index < campaignCount; index++) {
      const objective = OBJECTIVE_CYCLE[index % OBJECTIVE_CYCLE.length] ?? 'OUTCOME_SALES';
      const nameIndex = nameCounters.get(objective) ?? 0;
      nameCounters.set(objective, nameIndex + 1);
      const campaign = this.addCampaign(account, objective, cycleName(CAMPAIGN_NAMES[objective], nameIndex), {
        isCbo: cboIndexes.has(index),
        pause: index % 4 === 3,
      });
      for (let s = 0; s < (seed.adSetsPerCampaign ?? 3); s++) {
        const adSet = this.addAdSet(account, campaign, counters.adSets++);
        for (let a = 0; a < (seed.adsPerAdSet ?? 3); a++) this.addAd(account, campaign, adSet, counters.ads++);
      }
    }
    return account.id;
  }

  /**
   * Objects in Meta's other states, drawn after the rest of the world so it stays the same: an archived and a
   * deleted campaign that spent before they were put away, and a campaign started 4 days ago whose ads are held in
   * review (its ad set starts within two days of it, so it is live before the anchor day).
   */
  addLifecycleExamples(): void {
    const { anchor } = this.data;
    for (const account of this.lifecycleAccounts) {
      const putAway: [string, 'ARCHIVED' | 'DELETED', number][] = [
        ['Spring Sale 2025', 'ARCHIVED', 45],
        ['Creative Test Batch', 'DELETED', 35],
      ];
      for (const [name, status, daysAgo] of putAway) {
        const campaign = this.addCampaign(account, 'OUTCOME_SALES', name, { isCbo: false, pause: false });
        const adSet = this.addAdSet(account, campaign, 0);
        const ad = this.addAd(account, campaign, adSet, 0);
        const at = Math.max(ad.createdTime + DAY_MS, anchor - daysAgo * DAY_MS + 9 * HOUR_MS);
        for (const entity of [campaign, adSet, ad]) {
          entity.statusLog.push({ at, status });
          entity.updatedTime = Math.max(entity.updatedTime, at);
        }
      }
      const launch = this.addCampaign(account, 'OUTCOME_SALES', 'New Arrivals Launch', {
        isCbo: false,
        pause: false,
        created: anchor - 4 * DAY_MS + 8 * HOUR_MS,
      });
      const adSet = this.addAdSet(account, launch, 0);
      REVIEW_STATES.forEach((review, index) => {
        this.addAd(account, launch, adSet, index).review = review;
      });
      this.addAd(account, launch, adSet, REVIEW_STATES.length);
    }
  }

  private addCampaign(
    account: SandboxAccount,
    objective: Objective,
    name: string,
    shape: { isCbo: boolean; pause: boolean; created?: number },
  ): SandboxCampaign {
    const created =
      shape.created ?? this.data.historyStart - this.rng.integer(1, 25) * DAY_MS - this.rng.integer(0, 23) * HOUR_MS;
    const statusLog = this.statusLog(created, shape.pause);
    const budgetLog = shape.isCbo
      ? this.dailyBudgetLog(created, niceBudget(this.rng.between(60, 250), account.currency))
      : [];
    const campaign: SandboxCampaign = {
      id: this.uniqueId('1202', 14),
      accountId: account.id,
      name,
      objective,
      isCbo: shape.isCbo,
      ...(shape.isCbo ? { bidStrategy: 'LOWEST_COST_WITHOUT_CAP' } : {}),
      statusLog,
      budgetLog,
      startTime: created,
      createdTime: created,
      updatedTime: lastChange(statusLog, budgetLog),
      adSetIds: [],
    };
    this.data.campaigns.set(campaign.id, campaign);
    account.campaignIds.push(campaign.id);
    return campaign;
  }

  private addAdSet(account: SandboxAccount, campaign: SandboxCampaign, index: number): SandboxAdSet {
    const created = campaign.createdTime + this.rng.integer(1, 48) * HOUR_MS;
    const statusLog = this.statusLog(created, index % 5 === 4);
    const dailyBudget = niceBudget(this.rng.between(15, 120), account.currency);
    const lifetime = !campaign.isCbo && index % 6 === 5;
    const endTime = lifetime ? this.data.anchor + 30 * DAY_MS : undefined;
    let budgetLog: BudgetChange[] = [];
    if (lifetime && endTime !== undefined) {
      const days = Math.round((endTime - created) / DAY_MS);
      budgetLog = [{ at: created, lifetimeBudget: dailyBudget * days }];
    } else if (!campaign.isCbo) {
      budgetLog = this.dailyBudgetLog(created, dailyBudget);
    }
    const costCap = !campaign.isCbo && index % 4 === 2;
    const adSet: SandboxAdSet = {
      id: this.uniqueId('1202', 14),
      accountId: account.id,
      campaignId: campaign.id,
      name: cycleName(AD_SET_NAMES, index),
      optimizationGoal: OPTIMIZATION_GOAL[campaign.objective],
      ...(campaign.isCbo ? {} : { bidStrategy: costCap ? 'COST_CAP' : 'LOWEST_COST_WITHOUT_CAP' }),
      ...(costCap ? { bidAmount: niceBudget(this.rng.between(8, 30), account.currency) } : {}),
      statusLog,
      budgetLog,
      startTime: created,
      ...(endTime !== undefined ? { endTime } : {}),
      createdTime: created,
      updatedTime: lastChange(statusLog, budgetLog),
      adIds: [],
    };
    this.data.adSets.set(adSet.id, adSet);
    campaign.adSetIds.push(adSet.id);
    return adSet;
  }

  private addAd(account: SandboxAccount, campaign: SandboxCampaign, adSet: SandboxAdSet, index: number): SandboxAd {
    const created = adSet.createdTime + this.rng.integer(5, 180) * 60_000;
    const statusLog = this.statusLog(created, index % 7 === 5);
    const id = this.uniqueId('1202', 14);
    const [minRate, maxRate] = CONVERSION_RATE[campaign.objective];
    const profile: AdProfile = {
      key: hashString(id) ^ this.data.seedKey,
      weight: this.rng.between(0.5, 1.5),
      cpmUsd: this.rng.between(5, 16),
      ctr: this.rng.between(0.008, 0.025),
      linkShare: this.rng.between(0.55, 0.85),
      conversionRate: this.rng.between(minRate, maxRate),
      orderValueUsd: this.rng.between(25, 110),
    };
    const ad: SandboxAd = {
      id,
      accountId: account.id,
      campaignId: campaign.id,
      adSetId: adSet.id,
      name: cycleName(AD_NAMES, index),
      statusLog,
      createdTime: created,
      updatedTime: lastChange(statusLog, []),
      profile,
    };
    this.data.ads.set(ad.id, ad);
    adSet.adIds.push(ad.id);
    return ad;
  }
}

function lastChange(statusLog: StatusChange[], budgetLog: BudgetChange[]): number {
  return Math.max(...statusLog.map((change) => change.at), ...budgetLog.map((change) => change.at));
}

/** Builds the seeded world; pure: the same seed and anchor day give the same world. */
export function buildWorld(seed: SandboxSeed, anchorDate: string): WorldData {
  const fallback = defaultSeed();
  const seedKey = hashString(String(seed.seed ?? fallback.seed));
  const builder = new WorldBuilder(
    createRng(seedKey),
    seedKey,
    Date.parse(`${anchorDate}T00:00:00Z`),
    seed.historyDays ?? DEFAULT_HISTORY_DAYS,
  );
  for (const persona of seed.personas ?? fallback.personas) builder.addPersona(persona);
  builder.addLifecycleExamples();
  return builder.data;
}
