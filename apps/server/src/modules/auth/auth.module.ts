import type { Database, Transactions } from '@adpilot/db';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { deriveKey } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import { AccessTokens } from './access-token.ts';
import { AttemptLimiter } from './attempt-limiter.ts';
import { AuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { AuthService, type PersonalWorkspaces } from './auth.service.ts';
import { DeviceCookies } from './device-cookie.ts';
import { LoginCodes } from './login-code.ts';
import { RateLimitRepository } from './rate-limit.repository.ts';
import { SessionCache } from './session-cache.ts';

export interface AuthModuleDeps {
  transactions: Transactions;
  /** The handle with no unit of work (the application role, no user set): the Test page's RLS probe only. */
  plain: Database;
  /** The application secret: the keys of the access tokens, attempt counters, device cookies and codes derive from it. */
  appSecret: string;
  mailer: Mailer;
  /** The workspaces module's public API: sign-up makes the new user's personal workspace in its unit of work. */
  workspaces: PersonalWorkspaces;
  publicUrl: string;
  registrationsPerHour: number;
  now: () => Date;
}

/**
 * Accounts, sessions and tokens. Its public API: `service` (sessions' roles for the other modules), `accessTokens`
 * and `sessions` (the authentication hook and the session notifications in app.ts), `limiter` (the attempt counters
 * notifications and diagnostics share).
 */
export function createAuthModule(deps: AuthModuleDeps) {
  const { transactions, appSecret, now } = deps;
  const accessTokens = new AccessTokens(deriveKey(appSecret, 'jwt'), now);
  const sessions = new SessionCache({ now });
  const limiter = new AttemptLimiter(new RateLimitRepository(transactions), deriveKey(appSecret, 'rate-limit'), now);
  const service = new AuthService({
    transactions,
    workspaces: deps.workspaces,
    repository: new AuthRepository(transactions, deps.plain),
    accessTokens,
    limiter,
    devices: new DeviceCookies(deriveKey(appSecret, 'login-device'), now),
    loginCodes: new LoginCodes(deriveKey(appSecret, 'login-code')),
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    sessions,
    registrationsPerHour: deps.registrationsPerHour,
    now,
  });
  return { service, accessTokens, sessions, limiter, routes: bindRoutes(authRoutes, { auth: service }) };
}
