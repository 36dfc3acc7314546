import type { TenantScope } from '@adpilot/db';
import type { PlanId } from '@adpilot/contracts';

/**
 * The plan's monthly AI requests, as the AI studio needs them. Billing owns the counter and the plan; these are the
 * questions the AI service asks of it (ADR 49).
 */
export interface AiQuota<Ticket = unknown> {
  /**
   * Counts one AI request for the user's current billing month, atomically, or throws the plan's refusal (a 429
   * naming the upgrade path). A refused request is not counted.
   */
  take(scope: TenantScope): Promise<Ticket>;
  /** Gives back a request `take` counted when the provider failed and the user got no answer. */
  giveBack(ticket: Ticket): Promise<void>;
  usage(scope: TenantScope): Promise<{ plan: PlanId; used: number; limit: number }>;
}
