// The auth module's public face: what the rest of the server may import from it (ADR 0171).
export type { AccessTokens } from './access-token.ts';
export type { AttemptLimiter, LimitRule } from './attempt-limiter.ts';
export { createAuthModule } from './auth.module.ts';
export type { AuthService, VerifiedAddress } from './auth.service.ts';
export { SESSION_CHANNEL } from './session-cache.ts';
