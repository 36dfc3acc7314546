import type { PlanId } from '@adpilot/contracts';

/** The answer of one take: whether the request may run, and the month's count after it. */
export interface AiQuotaTake {
  allowed: boolean;
  used: number;
  /** -1 is unlimited. */
  limit: number;
}

/**
 * The plan's monthly AI requests, as the AI studio needs them. Billing owns the counter and the plan; this is the
 * one question the AI service asks of it.
 */
export interface AiQuota {
  /** Counts one AI request for the user's current billing month, atomically, unless the limit is reached. */
  take(userId: string): Promise<AiQuotaTake>;
  usage(userId: string): Promise<{ plan: PlanId; used: number; limit: number }>;
}
