import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.ts';
import { deriveKey, SecretBox } from './lib/crypto.ts';
import { AccessTokens } from './modules/auth/access-token.ts';
import { AttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { RateLimitRepository } from './modules/auth/rate-limit.repository.ts';
import { AuthRepository } from './modules/auth/auth.repository.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { OutboxMailer, SmtpMailer, type Mailer } from './providers/mail/mailer.ts';

/** Everything the routes and jobs need, built once per process (or per test) and passed down explicitly. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  secretBox: SecretBox;
  accessTokens: AccessTokens;
  mailer: Mailer;
  auth: AuthService;
  sessions: { isActive(sessionId: string, userId: string): Promise<boolean> };
  now: () => Date;
}

export interface ContextOptions {
  config: Config;
  database: DatabaseHandle;
  appSecret: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  mailer?: Mailer;
}

export function createContext(options: ContextOptions): AppContext {
  const { config, database, appSecret, log } = options;
  const now = options.now ?? (() => new Date());
  const authRepository = new AuthRepository(database.db);
  const mailer =
    options.mailer ??
    (config.smtp
      ? new SmtpMailer(config.smtp, config.mailFrom)
      : new OutboxMailer((mail) => authRepository.insertOutboxMail(mail), log));
  const accessTokens = new AccessTokens(deriveKey(appSecret, 'jwt'), now);
  const auth = new AuthService({
    repository: authRepository,
    accessTokens,
    limiter: new AttemptLimiter(new RateLimitRepository(database.db), deriveKey(appSecret, 'rate-limit'), now),
    mailer,
    publicUrl: config.publicUrl,
    now,
  });
  return {
    config,
    database,
    secretBox: new SecretBox(deriveKey(appSecret, 'encryption')),
    accessTokens,
    mailer,
    auth,
    sessions: { isActive: (sessionId, userId) => auth.isSessionActive(sessionId, userId) },
    now,
  };
}
