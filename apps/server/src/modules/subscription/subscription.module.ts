import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingConfig } from '../../config/env.ts';
import type { SettingsReader } from '../../config/runtime-settings.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { RulesService } from '../rules/index.ts';
import { billingSettingsFrom, type BillingSettings } from './billing-settings.ts';
import { BillingWebhooks, type BillingWebhooksDeps } from './billing-webhooks.ts';
import { billingRoutes } from './billing.routes.ts';
import { ReceiptsService } from './receipts.service.ts';
import { PlanLimits, type PoolSource, type PoolUsageSources } from './plan-limits.ts';
import { StripeGateways } from './stripe-gateway.ts';
import { SubscriptionRepository } from './subscription.repository.ts';
import { subscriptionRoutes } from './subscription.routes.ts';
import { SubscriptionService, type SubscriptionServiceDeps } from './subscription.service.ts';

/**
 * The subscription module's first part: the one limits seam every feature uses (active rules, rule cadence, ad
 * accounts, AI requests). The features are built on it, and the plan changes switch rules off, so the limits come
 * before the rules module and the rest of the subscription after it.
 */
export function createPlanLimits(deps: {
  transactions: Transactions;
  /** The workspaces module: which workspaces a plan covers (ADR 0110). */
  pools: PoolSource;
  /** What each owner module counts in a plan's workspaces (built later; asked once the server runs). */
  usage: PoolUsageSources;
  now: () => Date;
}): PlanLimits {
  return new PlanLimits({
    transactions: deps.transactions,
    repository: new SubscriptionRepository(),
    pools: deps.pools,
    usage: deps.usage,
    now: deps.now,
  });
}

export interface SubscriptionModuleDeps {
  transactions: Transactions;
  /** The module's first part (createPlanLimits). */
  limits: PlanLimits;
  rules: Pick<RulesService, 'deactivateBeyondLimit' | 'slowToPlan' | 'countActiveIn'>;
  /** What the plan counts of the ad accounts module, and the users' addresses (ADR 0066). */
  accounts: SubscriptionServiceDeps['accounts'];
  users: SubscriptionServiceDeps['users'] & BillingWebhooksDeps['users'];
  /** Which workspaces exist and who owns them (a Stripe event's workspace, the payment-failure mail). */
  workspaces: BillingWebhooksDeps['workspaces'];
  activity: ActivityRepository;
  /** Where Stripe's settings are read (the settings seam); `billing` takes their place (tests' local fake). */
  settings: SettingsReader;
  stripeApiUrl: string;
  /** Stripe price ids and the seller on receipts (ADR 0114, 0115). */
  billingConfig: BillingConfig;
  billing?: BillingSettings;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Plans, upgrades and Stripe's webhooks. Its public API: `limits` and `service` (the current plan). */
export function createSubscriptionModule(deps: SubscriptionModuleDeps) {
  const { transactions, limits, activity, mailer, log, now } = deps;
  const repository = new SubscriptionRepository();
  const billing = deps.billing ?? billingSettingsFrom(deps.settings, deps.stripeApiUrl);
  const gateways = new StripeGateways();
  const service = new SubscriptionService({
    transactions,
    repository,
    limits,
    rules: deps.rules,
    accounts: deps.accounts,
    users: deps.users,
    activity,
    billing,
    // The sandbox demo lets people try the plans; a real instance's plans are its administrator's (ADR 0087).
    selfService: () => deps.settings.current().meta.mode === 'sandbox',
    gateways,
    publicUrl: deps.publicUrl,
    stripePrices: deps.billingConfig.stripePrices,
    now,
  });
  const webhooks = new BillingWebhooks({
    transactions,
    repository,
    subscription: service,
    limits,
    users: deps.users,
    workspaces: deps.workspaces,
    activity,
    billing,
    gateways,
    mailer,
    log,
    now,
  });
  return {
    limits,
    service,
    webhooks,
    routes: bindRoutes(subscriptionRoutes, {
      subscription: service,
      receipts: new ReceiptsService({ limits, billing, gateways, seller: deps.billingConfig.seller }),
    }),
    billingRoutes: bindRoutes(billingRoutes, { billingWebhooks: webhooks }),
  };
}
