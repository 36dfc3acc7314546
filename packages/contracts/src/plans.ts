import type { PlanId } from './constants.ts';
import type { PlanLimits } from './subscription.ts';

/**
 * The plans' table and the codes it is made of, without schemas: the landing page draws its plan cards from it, and
 * a module that declares zod schemas would bring zod into that page's download (ADR 0138).
 */

/** Codes of plan features; the web renders each with the plan's limits. */
export const PLAN_FEATURES = [
  'ad_accounts',
  'active_rules',
  'ai_requests',
  'rule_check',
  'free_viewers',
  'activity_log',
  'backtest',
  'email_alerts',
  'community_support',
  'email_support',
  'priority_support',
  'dedicated_manager',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const CURRENCIES = ['USD', 'THB'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** A plan as the table below holds it. */
export interface PlanEntry {
  id: PlanId;
  name: string;
  prices: Record<Currency, number>;
  limits: PlanLimits;
  /** What the plan card lists, in order; every limit-bound code is enforced with the figure in `limits`. */
  features: readonly PlanFeature[];
  badge: 'popular' | 'recommended' | null;
}

/**
 * The plans (ADR 0113): the one table the plan cards are drawn from and every check reads (active rules, fastest
 * check, ad accounts, AI requests a month, seats, backtest range). A limit of -1 is unlimited. The database's
 * `subscription_plans` rows are kept equal to it (a test compares them) for the subscriptions' foreign key.
 */
export const PLAN_TABLE: readonly PlanEntry[] = [
  {
    id: 'free',
    name: 'Free',
    prices: { USD: 0, THB: 0 },
    limits: { adAccounts: 1, activeRules: 3, aiRequests: 30, fastestCheckMinutes: 60, backtestDays: 7, seats: 1 },
    features: [
      'ad_accounts',
      'active_rules',
      'ai_requests',
      'rule_check',
      'backtest',
      'free_viewers',
      'activity_log',
      'community_support',
    ],
    badge: null,
  },
  {
    id: 'pro',
    name: 'Pro',
    prices: { USD: 29, THB: 990 },
    limits: { adAccounts: 5, activeRules: 25, aiRequests: 500, fastestCheckMinutes: 15, backtestDays: 30, seats: 3 },
    features: [
      'ad_accounts',
      'active_rules',
      'ai_requests',
      'rule_check',
      'backtest',
      'free_viewers',
      'activity_log',
      'email_alerts',
      'email_support',
    ],
    badge: 'popular',
  },
  {
    id: 'business',
    name: 'Business',
    prices: { USD: 79, THB: 2690 },
    limits: {
      adAccounts: 20,
      activeRules: 100,
      aiRequests: 3000,
      fastestCheckMinutes: 15,
      backtestDays: 90,
      seats: 10,
    },
    features: [
      'ad_accounts',
      'active_rules',
      'ai_requests',
      'rule_check',
      'backtest',
      'free_viewers',
      'activity_log',
      'email_alerts',
      'priority_support',
    ],
    badge: null,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    prices: { USD: 199, THB: 6790 },
    limits: { adAccounts: -1, activeRules: -1, aiRequests: -1, fastestCheckMinutes: 5, backtestDays: 90, seats: -1 },
    features: [
      'ad_accounts',
      'active_rules',
      'ai_requests',
      'rule_check',
      'backtest',
      'free_viewers',
      'activity_log',
      'email_alerts',
      'dedicated_manager',
    ],
    badge: 'recommended',
  },
];
