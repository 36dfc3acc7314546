import { z } from 'zod';
import { PLAN_IDS, PLAN_NAMES, THB_PER_USD, type PlanId } from './constants.ts';
import { CURRENCIES, type PlanFeature } from './plans.ts';

/** Texts of spec §5 and §8 (Thai, as the spec gives them) and the server's refusals (English; the web renders codes). */
export const SUBSCRIPTION_MESSAGES = {
  /** Spec §5: choosing the plan already in use. */
  samePlan: 'คุณใช้แผนนี้อยู่แล้ว',
  upgradeFailed: 'เกิดข้อผิดพลาดในการอัพเกรด',
  upgraded: 'แผนการใช้งานได้รับการอัพเดทแล้ว!',
  canceled: 'แผนการใช้งานถูกยกเลิกแล้ว',
  cancelFailed: 'เกิดข้อผิดพลาดในการยกเลิก',
  alreadyFree: 'The free plan has nothing to cancel',
  adAccountLimit:
    'Your plan allows no more ad accounts. Disconnect one, or upgrade your plan on the Subscription page.',
  aiRequestLimit: "You have used this month's AI requests. Upgrade your plan on the Subscription page.",
  /** Names the plan and its figure, so the refusal says why (issue 33: a panel asked Free for 30 days). */
  backtestTooLong: (plan: PlanId, days: number) =>
    `The ${PLAN_NAMES[plan]} plan backtests rules over at most ${days} days. Upgrade your plan on the Subscription page.`,
  scheduleTooFast: (minutes: number) =>
    `Your plan checks rules at most every ${minutes} minutes. Upgrade your plan on the Subscription page.`,
  stripeUnavailable: 'The payment provider could not be reached. Please try again.',
  portalUnavailable: 'There is no billing account to manage yet',
  portalLocal: 'This instance bills locally: there is no payment provider account to manage',
  planByAdmin:
    'On this instance plans are assigned by its administrator. Ask the administrator to change the plan of this workspace.',
  assignedThroughStripe: 'This instance bills through Stripe: plans are changed there, not assigned',
  webhookSignature: 'Invalid webhook signature',
  notPayer: 'This plan is paid for by another owner: only they change it. Hand the workspace over to change who pays.',
  receiptNotFound: 'Receipt not found',
} as const;

/**
 * The figures every plan refusal carries in the envelope's `params` (PLAN_LIMIT_REACHED, AD_ACCOUNT_LIMIT_REACHED,
 * AI_REQUEST_LIMIT_REACHED, RULE_SCHEDULE_NOT_IN_PLAN): the plan holding the user back and its limit (active rules,
 * ad accounts, AI requests a month, or the fastest check in minutes).
 */
export interface PlanLimitParams {
  [key: string]: string | number;
  plan: PlanId;
  limit: number;
}

/** Where every plan refusal sends the user. */
export const UPGRADE_PATH = '/subscription';

export const planIdSchema = z.enum(PLAN_IDS, { error: 'Choose one of the plans: free, pro, business, enterprise' });
export const subscriptionStatusSchema = z.enum(['active', 'past_due']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const planLimitsSchema = z.object({
  adAccounts: z.number().int(),
  activeRules: z.number().int(),
  aiRequests: z.number().int(),
  fastestCheckMinutes: z.number().int(),
  /** The furthest back a rule backtest may look, in days. */
  backtestDays: z.number().int(),
  /**
   * People holding a seat across the plan's workspaces, each once: editors, admins and owners, members or invited
   * (-1 unlimited). Viewers take no seat (ADR 0111).
   */
  seats: z.number().int(),
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

export const currencySchema = z.enum(CURRENCIES);

/** Spec §3 Plan: id, name, price (dollars a month), features; plus the limits and the badge the page shows. */
export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  price: z.number(),
  /** The monthly price in each currency the plan is sold in (whole units: dollars, baht). */
  prices: z.array(z.object({ currency: currencySchema, amount: z.number() })),
  features: z.array(z.string()),
  limits: planLimitsSchema,
  badge: z.enum(['popular', 'recommended']).nullable(),
});
export type Plan = z.infer<typeof planSchema>;

/** The features whose figure is a limit the server enforces, and which limit it is. */
export const LIMITED_FEATURES = {
  ad_accounts: 'adAccounts',
  active_rules: 'activeRules',
  ai_requests: 'aiRequests',
  rule_check: 'fastestCheckMinutes',
  backtest: 'backtestDays',
} as const satisfies Partial<Record<PlanFeature, keyof PlanLimits>>;

/** What a plan limits, pooled across its workspaces or used by one (ADR 0110); a limit of -1 is unlimited. */
export const poolFiguresSchema = z.object({
  adAccounts: z.number().int(),
  activeRules: z.number().int(),
  aiRequests: z.number().int(),
  seats: z.number().int(),
});
export type PoolFigures = z.infer<typeof poolFiguresSchema>;

/** Spec §3 Subscription (current): a limit of -1 means unlimited. */
export const currentSubscriptionSchema = z.object({
  plan: planIdSchema,
  status: subscriptionStatusSchema,
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  provider: z.enum(['local', 'stripe']),
  /**
   * The instance bills through Stripe and the user holds a Stripe subscription (paid, past due or cancelling): the
   * page offers the billing portal (payment method, invoices).
   */
  canManageBilling: z.boolean(),
  /**
   * Local billing outside the sandbox demo: only the instance administrator assigns plans (ADR 0087), so the page
   * says how to ask instead of offering the plan buttons.
   */
  assignedByAdmin: z.boolean(),
  /** The plan is the signed-in person's (ADR 0110); otherwise another owner pays for it and only they change it. */
  paidByYou: z.boolean(),
  /** Pooled figures (ADR 0110): the plan's, across every workspace it covers. */
  aiRequestsUsed: z.number().int(),
  aiRequestsLimit: z.number().int(),
  rulesUsed: z.number().int(),
  rulesLimit: z.number().int(),
  adAccountsUsed: z.number().int(),
  adAccountsLimit: z.number().int(),
  /** The plan's limits and what its workspaces use of them together (seats: each person once, viewers free). */
  pool: z.object({ limits: poolFiguresSchema, used: poolFiguresSchema }),
  /** Every workspace the plan covers, the payer's personal one first, with its own use. */
  workspaces: z.array(z.object({ id: z.string(), name: z.string(), personal: z.boolean(), used: poolFiguresSchema })),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;

/**
 * How a Checkout is paid (ADR 0114): by card (a subscription charged each month), or by PromptPay for baht, which
 * Stripe takes only on invoices sent to the customer (each month's invoice paid from its page by a QR code).
 */
export const PAYMENT_METHODS = ['card', 'promptpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const upgradeRequestSchema = z
  .strictObject({
    planId: planIdSchema,
    /** The currency paid in; USD when not said. */
    currency: currencySchema.optional(),
    paymentMethod: z.enum(PAYMENT_METHODS).optional(),
  })
  .refine((body) => body.paymentMethod !== 'promptpay' || body.currency === 'THB', {
    path: ['paymentMethod'],
    message: 'PromptPay is paid in baht (currency THB)',
  });
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** With Stripe the answer carries the Checkout address (`url`); locally the change is already made. */
export const upgradeResponseSchema = z.object({
  subscription: currentSubscriptionSchema,
  url: z.string().optional(),
});
export type UpgradeResponse = z.infer<typeof upgradeResponseSchema>;

export const cancelResponseSchema = z.object({ subscription: currentSubscriptionSchema });
export const portalResponseSchema = z.object({ url: z.string() });

/** Baht approximation of a dollar price (spec §9: price × 35, rounded). */
export const approximateBaht = (dollars: number) => Math.round(dollars * THB_PER_USD);

/** Spec §9: the share of a limit used, for the meters; unlimited shows 0; capped at 100. */
export function usagePercent(used: number, limit: number): number {
  if (limit <= 0) return 0;
  return Math.min(100, (used / limit) * 100);
}

/** The contact-sales block's address (spec §2). */
export const SALES_EMAIL = 'sales@adpilot.app';

/** The languages a receipt is written in. */
export const RECEIPT_LANGUAGES = ['en', 'th'] as const;
export type ReceiptLanguage = (typeof RECEIPT_LANGUAGES)[number];

/**
 * One paid invoice of the plan, as a receipt (ADR 0115): amounts in whole units with their decimals (฿990.00), VAT
 * shown only when the seller is registered (prices include it).
 */
export const receiptSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  paidAt: z.string(),
  /** ISO 4217, upper case (USD, THB). */
  currency: z.string(),
  total: z.number(),
  vat: z.object({ rate: z.number(), net: z.number(), amount: z.number() }).nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;

export const receiptParamsSchema = z.strictObject({ id: z.string().regex(/^in_[A-Za-z0-9]{1,64}$/) });
export const receiptQuerySchema = z.strictObject({ language: z.enum(RECEIPT_LANGUAGES).default('en') });
