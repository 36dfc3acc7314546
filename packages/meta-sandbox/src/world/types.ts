/** What a write may set. */
export type WritableStatus = 'ACTIVE' | 'PAUSED';
/** An object's own status: archived objects stay readable, deleted ones only through an effective_status filter. */
export type ConfiguredStatus = WritableStatus | 'ARCHIVED' | 'DELETED';
/** Review and processing states Meta shows as effective_status while the object's own status is ACTIVE. */
export type ReviewStatus = 'IN_PROCESS' | 'WITH_ISSUES' | 'DISAPPROVED' | 'PENDING_REVIEW';
export type Objective = 'OUTCOME_SALES' | 'OUTCOME_TRAFFIC' | 'OUTCOME_LEADS' | 'OUTCOME_AWARENESS';
import type { EntityLevel } from '@adpilot/contracts';

export type EntityKind = EntityLevel;

/** A status that holds from `at` (epoch ms) until the next entry. */
export interface StatusChange {
  at: number;
  status: ConfiguredStatus;
}

/** A budget (minor units) that holds from `at` until the next entry; exactly one of the two is set. */
export interface BudgetChange {
  at: number;
  dailyBudget?: number;
  lifetimeBudget?: number;
}

export interface SandboxPersona {
  id: string;
  name: string;
  businessId: string;
  businessName: string;
  accountIds: string[];
}

export interface SandboxAccount {
  /** Numeric id, without act_. */
  id: string;
  personaId: string;
  name: string;
  currency: string;
  timezone: string;
  accountStatus: number;
  disableReason: number;
  /** When a non-delivering status began (epoch ms); delivery stops there. */
  statusSince: number;
  minDailyBudget: number;
  createdTime: number;
  campaignIds: string[];
}

interface EntityBase {
  id: string;
  accountId: string;
  name: string;
  statusLog: StatusChange[];
  createdTime: number;
  updatedTime: number;
  /** Set on the lifecycle examples: held in review or processing, not delivering. */
  review?: ReviewStatus;
}

export interface SandboxCampaign extends EntityBase {
  objective: Objective;
  /** Set only with campaign budget optimisation, where the budget lives on the campaign. */
  bidStrategy?: string;
  isCbo: boolean;
  budgetLog: BudgetChange[];
  startTime: number;
  adSetIds: string[];
}

export interface SandboxAdSet extends EntityBase {
  campaignId: string;
  optimizationGoal: string;
  bidStrategy?: string;
  bidAmount?: number;
  budgetLog: BudgetChange[];
  startTime: number;
  endTime?: number;
  adIds: string[];
  /** Meta blocks an ad set's budget for an hour after too many changes; until then (epoch ms). */
  budgetBlockedUntil?: number;
}

/** Seeded traits that make one ad perform differently from its neighbours. */
export interface AdProfile {
  key: number;
  weight: number;
  cpmUsd: number;
  ctr: number;
  linkShare: number;
  conversionRate: number;
  orderValueUsd: number;
  /**
   * Set by `makeFatigued`, never by the seed: from day number `fromDay` the creative wears over 14 days (its
   * frequency climbs, CTR falls and CPM rises, by `strength` of the full effect).
   */
  fatigue?: { fromDay: number; strength: number };
}

export interface SandboxAd extends EntityBase {
  campaignId: string;
  adSetId: string;
  profile: AdProfile;
}

export type SandboxEntity =
  | { kind: 'campaign'; entity: SandboxCampaign }
  | { kind: 'adset'; entity: SandboxAdSet }
  | { kind: 'ad'; entity: SandboxAd };

/** Who made a write, as the account's activity history names them: a person, through an app. */
export interface MutationActor {
  actorId: string;
  actorName: string;
  applicationId: string;
  applicationName: string;
}

/** The values a write replaced, for the activity history's old values. */
export interface MutationBefore {
  status?: ConfiguredStatus;
  dailyBudget?: number;
  lifetimeBudget?: number;
}

/** One write accepted by the sandbox; the log of these is what a state file keeps. */
export interface Mutation {
  at: number;
  objectId: string;
  status?: WritableStatus;
  dailyBudget?: number;
  lifetimeBudget?: number;
  /** Absent on writes kept from before the sandbox recorded who made them. */
  by?: MutationActor;
  before?: MutationBefore;
}
