/** Local storage keys shared by the web app (spec §9). */
export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  user: 'user',
  theme: 'theme',
  language: 'language',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;

export const PLAN_IDS = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
/**
 * The plans' display names, as the catalogue (`subscription_plans`, seeded by migration) holds them and the
 * Subscription page shows them in either language; activity texts word a plan id with them. A server test keeps the
 * two equal.
 */
export const PLAN_NAMES: Record<PlanId, string> = {
  free: 'Free',
  pro: 'Pro',
  business: 'Business',
  enterprise: 'Enterprise',
};

export const PLATFORMS = ['facebook', 'google', 'tiktok', 'linkedin', 'instagram'] as const;
export const HACK_PLATFORMS = ['facebook', 'google', 'tiktok', 'linkedin'] as const;

/** A plan limit of -1 means unlimited. */
export const UNLIMITED = -1;
/** Baht approximation of a dollar price (spec §9: price × 35, rounded). */
export const THB_PER_USD = 35;

export const LOGS_DEFAULT_LIMIT = 50;

/** Freshness of cached queries in the web app, in milliseconds. */
export const QUERY_STALE_MS = 5 * 60 * 1000;
export const LOGS_STALE_MS = 30 * 1000;
export const TOAST_DURATION_MS = 4000;

/** Access tokens live 15 minutes; refresh tokens 30 days; OAuth states 10 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/**
 * A refresh token presented again this soon after it was rotated is a race between tabs of one browser, not theft:
 * it is refused with REFRESH_TOKEN_ROTATED and the session lives on (ADR 0079). Later, reuse ends the session.
 */
export const REFRESH_RACE_GRACE_SECONDS = 10;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
/** How long an address's confirmation link works (ADR 0054). */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
