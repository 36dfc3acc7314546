import type { SettingsReader } from '../../config/runtime-settings.ts';

/** What billing needs to talk to Stripe. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret?: string;
  publishableKey?: string;
  /** Stripe's API address: https://api.stripe.com, or a local fake in tests. */
  apiUrl: string;
}

/**
 * The one place billing reads its provider's configuration, asked at every use: Stripe when a secret key is set
 * (in the environment or in Settings), local billing (undefined) otherwise.
 */
export type BillingSettings = () => StripeSettings | undefined;

export function billingSettingsFrom(settings: SettingsReader, apiUrl: string): BillingSettings {
  return () => {
    const { mode, secretKey, webhookSecret, publishableKey } = settings.current().stripe;
    return mode === 'stripe' && secretKey ? { secretKey, webhookSecret, publishableKey, apiUrl } : undefined;
  };
}
