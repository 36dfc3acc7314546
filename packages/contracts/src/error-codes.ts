/** Machine-readable error codes of the API envelope; the web client maps them to UI. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'TOKEN_EXPIRED',
  /** A refresh token rotated a moment ago, presented again by another tab (409): use the stored successor (ADR 0079). */
  'REFRESH_TOKEN_ROTATED',
  'FORBIDDEN',
  'NOT_FOUND',
  /** A path of the API called with a method it does not have (405, with Allow; ADR 0099). */
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'EMAIL_TAKEN',
  'PAYLOAD_TOO_LARGE',
  /** A JSON body nested deeper than the server parses (400, ADR 0062). */
  'BODY_TOO_DEEP',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  /**
   * The account's sign-in budget is spent (429, ADR 0087): a browser that signed in before still gets in, any other
   * asks for a sign-in code by e-mail. A wrong, used or expired code is `INVALID_LOGIN_CODE` (401).
   */
  'LOGIN_ACCOUNT_LIMITED',
  'INVALID_LOGIN_CODE',
  'INVALID_STATE',
  /** A notification e-mail asked for while the account's address is not confirmed (409, ADR 0054). */
  'EMAIL_NOT_VERIFIED',
  /** Plan refusals (the web shows the upgrade path with each): active rules, ad accounts, AI requests, schedule. */
  'PLAN_LIMIT_REACHED',
  'AD_ACCOUNT_LIMIT_REACHED',
  'AI_REQUEST_LIMIT_REACHED',
  'RULE_SCHEDULE_NOT_IN_PLAN',
  /** A workspace's members and pending invitations fill its plan's seats (403, params: plan and limit). */
  'SEAT_LIMIT_REACHED',
  'PLAN_NOT_PAYER',
  'WORKSPACE_PAYER',
  'BACKTEST_RANGE_NOT_IN_PLAN',
  'SUBSCRIPTION_SAME_PLAN',
  /** Without Stripe, outside the sandbox demo, only the instance administrator assigns plans (403, ADR 0087). */
  'PLAN_CHANGE_BY_ADMIN',
  'SUBSCRIPTION_NOT_CANCELABLE',
  'BILLING_PROVIDER_ERROR',
  /** The billing portal refused (409): the instance bills locally, or the user has no Stripe customer yet. */
  'BILLING_PORTAL_LOCAL',
  'BILLING_PORTAL_NO_ACCOUNT',
  'WEBHOOK_SIGNATURE_INVALID',
  'META_REAUTH_REQUIRED',
  'META_PERMISSION_MISSING',
  /** POST /api/ad-accounts/system-user refused (400): debug_token says the token is not valid, or not a system user's. */
  'META_TOKEN_INVALID',
  'META_TOKEN_NOT_SYSTEM_USER',
  'AD_ACCOUNT_READ_ONLY',
  'META_ERROR',
  /** POST /api/rules/actions/:actionId/revert refused (409), one code per reason (rule-codes' REVERT_REFUSAL_CODES). */
  'REVERT_VALUE_CHANGED',
  'REVERT_ALREADY_REVERTED',
  'REVERT_NOT_REVERTIBLE',
  'REVERT_NOT_APPLIED',
  /** POST /api/rules/holds/:actionId/resume refused (409): the hold was already resumed, skipped or cancelled. */
  'HOLD_NOT_SCHEDULED',
  /** A proposal (approve mode) refused (409): the live value changed since it was made, or it is already closed. */
  'PROPOSAL_STALE',
  'PROPOSAL_CLOSED',
  /** The Test page's actions are off on this instance (production without DIAGNOSTICS_ENABLED=true). */
  'DIAGNOSTICS_DISABLED',
  /** The AI studio: a request the rule drafting could not read (422). */
  'AI_DRAFT_NOT_UNDERSTOOD',
  /** An OpenAI-compatible provider refused or failed (502/503/504), one code per cause the user can act on. */
  'AI_PROVIDER_AUTH',
  'AI_PROVIDER_QUOTA',
  'AI_PROVIDER_RATE_LIMITED',
  'AI_MODEL_UNKNOWN',
  'AI_TIMEOUT',
  'AI_INVALID_REPLY',
  'AI_REFUSED',
  'AI_UNAVAILABLE',
  /** The AI server's address saved in Settings resolves to a private or local network (ADR 0097). */
  'AI_ADDRESS_REFUSED',
  /** Workspaces (ADR 0070): an invitation that cannot be accepted, one code per reason (409). */
  'INVITATION_USED',
  'INVITATION_REVOKED',
  'INVITATION_EXPIRED',
  'INVITATION_EMAIL_MISMATCH',
  /** The personal workspace cannot be deleted; the last owner cannot leave or lose the role (409). */
  'WORKSPACE_PERSONAL',
  'WORKSPACE_LAST_OWNER',
  /** My account (issue 31): the current password was wrong (403); an owned workspace with no fate said (409). */
  'ACCOUNT_PASSWORD_WRONG',
  'ACCOUNT_WORKSPACE_UNDECIDED',
  /** A workspace handed to someone who is not its member (409). */
  'WORKSPACE_RECEIVER_NOT_MEMBER',
  'WORKSPACE_TRANSFER_DOES_NOT_FIT',
  /** The address is already a member, or already has a pending invitation (409). */
  'WORKSPACE_ALREADY_MEMBER',
  /** A workspace keeps at most REPORT_SCHEDULES_MAX report schedules (409, ADR 0080). */
  'REPORT_SCHEDULE_LIMIT_REACHED',
  /** A workspace holds at most API_TOKENS_PER_WORKSPACE live API tokens (409, ADR 0150). */
  'API_TOKEN_LIMIT_REACHED',
  /** An OAuth authorization request the consent page cannot honour: unknown client, unregistered redirect (400). */
  'OAUTH_REQUEST_INVALID',
  /**
   * Outbound mail (ADR 0092): a day's mail of the sender, the workspace or to the recipient is used up (429 with
   * Retry-After, params: scope and limit); a confirm or unsubscribe link that is not one of ours (400).
   */
  'MAIL_LIMIT_REACHED',
  'MAIL_LINK_INVALID',
  /** Re-sending to an address that has not answered the workspace's first mail, or unsubscribed from it (409). */
  'MAIL_AWAITING_CONFIRMATION',
  'MAIL_UNSUBSCRIBED',
  /** A person owns at most WORKSPACES_PER_PERSON workspaces, the personal one included (409, params: limit). */
  'WORKSPACE_LIMIT_REACHED',
  /**
   * The demo workspace (ADR 0185): a demo session's write, export, invitation or billing call (403), Watch Demo on
   * an instance whose Meta is not the sandbox (503), and before the first demo is built (503 with Retry-After).
   */
  'DEMO_READ_ONLY',
  'DEMO_UNAVAILABLE',
  'DEMO_PREPARING',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
