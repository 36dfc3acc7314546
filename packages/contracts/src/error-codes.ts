/** Machine-readable error codes of the API envelope; the web client maps them to UI. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'TOKEN_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'EMAIL_TAKEN',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INVALID_STATE',
  'PLAN_LIMIT_REACHED',
  'META_REAUTH_REQUIRED',
  'META_PERMISSION_MISSING',
  'AD_ACCOUNT_READ_ONLY',
  'META_ERROR',
  /** POST /api/rules/actions/:actionId/revert refused (409), one code per reason (rule-codes' REVERT_REFUSAL_CODES). */
  'REVERT_VALUE_CHANGED',
  'REVERT_ALREADY_REVERTED',
  'REVERT_NOT_REVERTIBLE',
  'REVERT_NOT_APPLIED',
  /** The Test page's actions are off on this instance (production without DIAGNOSTICS_ENABLED=true). */
  'DIAGNOSTICS_DISABLED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
