/** The shape tests and benchmarks use to describe a world; every field has a default. */
export interface SandboxSeed {
  /** Any string or number: the same value (with the same anchor day) always builds the same world. */
  seed?: string | number;
  /** Days of delivery history before the anchor day (default 60). */
  historyDays?: number;
  /** Day zero of the world, YYYY-MM-DD (UTC). Default: the state file's, else the sandbox clock's day. */
  anchorDate?: string;
  /** Sandbox users; the first is the default on the consent screen. Replaces the default personas. */
  personas?: PersonaSeed[];
}

export interface PersonaSeed {
  /** Numeric user id; generated when absent. */
  id?: string;
  name: string;
  businessName?: string;
  accounts: AccountSeed[];
}

export interface AccountSeed {
  /** Numeric account id without the act_ prefix; generated when absent. */
  id?: string;
  name: string;
  /** ISO 4217 code, e.g. THB, USD, JPY. */
  currency: string;
  /** IANA zone, e.g. Asia/Bangkok. */
  timezone: string;
  /** Graph account_status (1 ACTIVE, 2 DISABLED, 3 UNSETTLED, …); default 1. */
  accountStatus?: number;
  disableReason?: number;
  /** For a status other than ACTIVE: how many days before the anchor it began (default 7). */
  statusSinceDays?: number;
  /** Campaign count (default 4). */
  campaigns?: number;
  /** Ad sets per campaign (default 3). */
  adSetsPerCampaign?: number;
  /** Ads per ad set (default 3). */
  adsPerAdSet?: number;
  /** How many campaigns use campaign budget optimisation (default 1, capped by campaigns). */
  cboCampaigns?: number;
  /**
   * Add objects in Meta's other states (default false): an ARCHIVED and a DELETED campaign, and a new campaign
   * whose ads are DISAPPROVED, PENDING_REVIEW, WITH_ISSUES and IN_PROCESS. Built after every other object, so the
   * rest of the world is the same with or without them.
   */
  lifecycleExamples?: boolean;
}

export const DEFAULT_HISTORY_DAYS = 60;

/** The world an embedded AdPilot shows out of the box: two sandbox users in five markets. */
export function defaultSeed(): Required<Pick<SandboxSeed, 'seed' | 'personas'>> {
  return {
    seed: 'adpilot-sandbox',
    personas: [
      {
        name: 'Sandbox Store Owner',
        businessName: 'Siam Living Co., Ltd.',
        accounts: [
          { name: 'Siam Living Store', currency: 'THB', timezone: 'Asia/Bangkok', lifecycleExamples: true },
          {
            name: 'Brooklyn Coffee Co.',
            currency: 'USD',
            timezone: 'America/New_York',
            campaigns: 3,
            adSetsPerCampaign: 2,
          },
          {
            name: 'Summer Pop-up Shop',
            currency: 'EUR',
            timezone: 'Europe/Berlin',
            accountStatus: 3,
            statusSinceDays: 9,
            campaigns: 2,
            adSetsPerCampaign: 2,
            adsPerAdSet: 2,
          },
        ],
      },
      {
        name: 'Sandbox Agency Manager',
        businessName: 'Northstar Performance Agency',
        accounts: [
          {
            name: 'Tokyo Tea House',
            currency: 'JPY',
            timezone: 'Asia/Tokyo',
            campaigns: 3,
            adSetsPerCampaign: 2,
            lifecycleExamples: true,
          },
          {
            name: 'London Print Studio',
            currency: 'GBP',
            timezone: 'Europe/London',
            accountStatus: 2,
            disableReason: 1,
            statusSinceDays: 20,
            campaigns: 2,
            adSetsPerCampaign: 2,
            adsPerAdSet: 2,
          },
        ],
      },
    ],
  };
}

/** Rough price of one US dollar, so a Bangkok CPM looks like a Bangkok CPM. */
const PRICE_LEVEL: Record<string, number> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  THB: 35,
  JPY: 150,
  SGD: 1.35,
  AUD: 1.5,
  CAD: 1.37,
  INR: 83,
  IDR: 16_000,
  VND: 25_000,
  KRW: 1_350,
};

export { currencyOffset } from '@adpilot/contracts';

export function priceLevel(currency: string): number {
  return PRICE_LEVEL[currency] ?? 1;
}

/** Account statuses that still deliver ads (ACTIVE, PENDING_SETTLEMENT, IN_GRACE_PERIOD). */
export const DELIVERING_ACCOUNT_STATUSES: ReadonlySet<number> = new Set([1, 8, 9]);
