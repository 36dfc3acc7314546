// The subscription module's public face: what the rest of the server may import from it (ADR 0171).
export type { BillingSettings } from './billing-settings.ts';
export type { PlanLimits } from './plan-limits.ts';
export { createPlanLimits, createSubscriptionModule } from './subscription.module.ts';
export type { SubscriptionService } from './subscription.service.ts';
