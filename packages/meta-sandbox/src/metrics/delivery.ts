import { addDays, localDate, startOfLocalDay } from '@adpilot/contracts';
import { noise, hashString } from '../world/random.ts';
import { dayNumber, DAY_MS } from '../world/time-zone.ts';
import { budgetAt, type World } from '../world/world.ts';
import type { SandboxAccount, SandboxAd, SandboxAdSet, SandboxCampaign } from '../world/types.ts';
import { deriveAdDay, type AdDay } from './ad-day.ts';

/** The entity whose budget an ad spends from: its campaign under campaign budget optimisation, else its ad set. */
type BudgetPool = { kind: 'campaign'; owner: SandboxCampaign } | { kind: 'adset'; owner: SandboxAdSet };

const PACING_TAG = 101;

/**
 * The spend model. A pool spends its budget evenly over the local day, times a seeded pacing factor, and splits
 * it across the ads that can deliver by their weights. Every status or budget change is a cut in the day, so a
 * pause at 14:00 stops spend at 14:00 and a raise at 09:00 counts from 09:00. Today is cut at `now`.
 */
interface LocalDay {
  start: number;
  end: number;
  number: number;
}

export class DeliveryModel {
  /** Pool-days that ended before `now`, by pool id then date; they cannot change until the next write. */
  private readonly closedDays = new Map<string, Map<string, Map<string, number>>>();
  /** Bounds of local days by time zone then date: computing them needs Intl, which is slow in a hot loop. */
  private readonly days = new Map<string, Map<string, LocalDay>>();
  private readonly poolKeys = new Map<string, number>();
  private seenRevision = -1;

  constructor(private readonly world: World) {}

  poolOf(ad: SandboxAd): BudgetPool {
    const campaign = this.world.campaignOf(ad);
    return campaign.isCbo ? { kind: 'campaign', owner: campaign } : { kind: 'adset', owner: this.world.adSetOf(ad) };
  }

  /** One ad's numbers for a local day of its account, or undefined when it did not deliver. */
  adDay(ad: SandboxAd, date: string, now: number): AdDay | undefined {
    const spend = Math.round(this.poolDay(this.poolOf(ad), date, now).get(ad.id) ?? 0);
    if (spend <= 0) return undefined;
    const account = this.world.accountOf(ad);
    const objective = this.world.campaignOf(ad).objective;
    const day = deriveAdDay(ad, objective, account.currency, this.localDay(account.timezone, date).number, spend);
    return day.impressions > 0 ? day : undefined;
  }

  /** A pool's spend on a day so far (minor units), e.g. to check a lowered budget against it. */
  poolSpend(owner: SandboxCampaign | SandboxAdSet, date: string, now: number): number {
    const pool: BudgetPool = 'adSetIds' in owner ? { kind: 'campaign', owner } : { kind: 'adset', owner };
    let total = 0;
    for (const spend of this.poolDay(pool, date, now).values()) total += spend;
    return total;
  }

  /** Spend of an account from the start of its history up to now (minor units), for amount_spent. */
  accountSpend(account: SandboxAccount, now: number): number {
    const pools: BudgetPool[] = this.world
      .campaignsOf(account)
      .flatMap((campaign): BudgetPool[] =>
        campaign.isCbo
          ? [{ kind: 'campaign', owner: campaign }]
          : this.world.adSetsOf(campaign).map((owner) => ({ kind: 'adset', owner })),
      );
    const today = localDate(account.timezone, now);
    let total = 0;
    for (let date = localDate(account.timezone, this.world.historyStart); date <= today; date = addDays(date, 1)) {
      for (const pool of pools) {
        for (const spend of this.poolDay(pool, date, now).values()) total += Math.round(spend);
      }
    }
    return total;
  }

  private poolDay(pool: BudgetPool, date: string, now: number): Map<string, number> {
    if (this.seenRevision !== this.world.revision) {
      this.closedDays.clear();
      this.seenRevision = this.world.revision;
    }
    const day = this.localDay(this.world.accountOf(pool.owner).timezone, date);
    const closed = day.end <= now;
    let poolDays = this.closedDays.get(pool.owner.id);
    const cached = closed ? poolDays?.get(date) : undefined;
    if (cached) return cached;
    const spend = this.integrate(pool, day.number, day.start, Math.min(day.end, now));
    if (closed) {
      if (!poolDays) {
        poolDays = new Map();
        this.closedDays.set(pool.owner.id, poolDays);
      }
      poolDays.set(date, spend);
    }
    return spend;
  }

  private localDay(timezone: string, date: string): LocalDay {
    let zone = this.days.get(timezone);
    if (!zone) {
      zone = new Map();
      this.days.set(timezone, zone);
    }
    let day = zone.get(date);
    if (!day) {
      day = {
        start: startOfLocalDay(timezone, date),
        end: startOfLocalDay(timezone, addDays(date, 1)),
        number: dayNumber(date),
      };
      zone.set(date, day);
    }
    return day;
  }

  private integrate(pool: BudgetPool, dayIndex: number, start: number, end: number): Map<string, number> {
    const spend = new Map<string, number>();
    if (end <= start) return spend;
    const ads = this.poolAds(pool);
    const cuts = new Set<number>([start, end]);
    const addCut = (instant: number): void => {
      if (instant > start && instant < end) cuts.add(instant);
    };
    pool.owner.budgetLog.forEach((change) => addCut(change.at));
    addCut(this.world.accountOf(pool.owner).statusSince);
    const statusOwners = new Set<{ statusLog: { at: number }[] }>();
    for (const ad of ads) {
      addCut(ad.createdTime);
      statusOwners.add(ad).add(this.world.adSetOf(ad)).add(this.world.campaignOf(ad));
    }
    for (const owner of statusOwners) owner.statusLog.forEach((change) => addCut(change.at));

    const pacing = 0.86 + 0.12 * noise(this.poolKey(pool.owner.id), dayIndex, PACING_TAG);
    const ordered = [...cuts].sort((a, b) => a - b);
    for (let index = 1; index < ordered.length; index++) {
      const from = ordered[index - 1] ?? start;
      const to = ordered[index] ?? end;
      const middle = (from + to) / 2;
      const rate = this.budgetRate(pool, middle) * pacing;
      if (rate <= 0) continue;
      const delivering = ads.filter((ad) => this.world.isAdDelivering(ad, middle));
      const totalWeight = delivering.reduce((sum, ad) => sum + ad.profile.weight, 0);
      for (const ad of delivering) {
        spend.set(ad.id, (spend.get(ad.id) ?? 0) + (rate * (to - from) * ad.profile.weight) / totalWeight);
      }
    }
    return spend;
  }

  private poolAds(pool: BudgetPool): SandboxAd[] {
    const adSets = pool.kind === 'campaign' ? this.world.adSetsOf(pool.owner) : [pool.owner];
    return adSets.flatMap((adSet) => this.world.adsOf(adSet));
  }

  /** Minor units per ms the pool may spend at an instant. */
  private budgetRate(pool: BudgetPool, instant: number): number {
    const budget = budgetAt(pool.owner.budgetLog, instant);
    if (budget?.dailyBudget !== undefined) return budget.dailyBudget / DAY_MS;
    if (budget?.lifetimeBudget === undefined || pool.kind !== 'adset') return 0;
    const { startTime, endTime } = pool.owner;
    if (endTime === undefined || instant < startTime || instant >= endTime) return 0;
    return budget.lifetimeBudget / (endTime - startTime);
  }

  private poolKey(id: string): number {
    let key = this.poolKeys.get(id);
    if (key === undefined) {
      key = hashString(id) ^ this.world.seedKey;
      this.poolKeys.set(id, key);
    }
    return key;
  }
}
