export type ConfiguredStatus = 'ACTIVE' | 'PAUSED';
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

/** One write accepted by the sandbox; the log of these is what a state file keeps. */
export interface Mutation {
  at: number;
  objectId: string;
  status?: ConfiguredStatus;
  dailyBudget?: number;
  lifetimeBudget?: number;
}
