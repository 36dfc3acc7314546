import type {
  DiagnosticCode,
  DiagnosticResult,
  DiagnosticStatus,
  DiagnosticTest,
  DiagnosticsInfo,
  MissingConfigCode,
} from '@adpilot/contracts';
import type { DatabaseKind, SystemTx, Transactions } from '@adpilot/db';
import type { Config } from '../../config/env.ts';
import type { SettingsReader } from '../../config/runtime-settings.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AccessTokens, AttemptLimiter, LimitRule, AuthService } from '../auth/index.ts';
import type { DiagnosticsRepository } from './diagnostics.repository.ts';

/** Spec §9: the Test page lists up to 5 plans. */
export const DIAGNOSTICS_PLAN_LIMIT = 5;

/**
 * The checks are open to anyone and write (probe users, an argon2 hash for the registration), so one address gets
 * a budget of its own under the flood limit: a dozen Run All Tests an hour, and ten registration probes.
 */
export const DIAGNOSTICS_LIMITS = {
  registration: { name: 'diagnostics-registration:address', scope: 'address', max: 10, windowSeconds: 60 * 60 },
  checks: { name: 'diagnostics:address', scope: 'address', max: 60, windowSeconds: 60 * 60 },
} satisfies Record<string, LimitRule>;
const TOO_MANY_CHECKS = 'Too many diagnostic checks from this address. Please try again later.';

export interface DiagnosticsServiceDeps {
  enabled: boolean;
  config: Pick<Config, 'env' | 'role' | 'appSecret'>;
  database: { kind: DatabaseKind };
  transactions: Transactions;
  repository: DiagnosticsRepository;
  settings: SettingsReader;
  /** Auth's users and sessions: the RLS probe runs on its tables, through its API (ADR 0066). */
  auth: AuthService;
  /** Up to `limit` plans of the catalogue, or null while the instance has no plans table (subscription's API). */
  plans: { planSampleIn(tx: SystemTx, limit: number): Promise<{ id: string; name: string }[] | null> };
  accessTokens: AccessTokens;
  limiter: AttemptLimiter;
  appVersion: string;
  now: () => Date;
}

type Outcome = { status: DiagnosticStatus; code: DiagnosticCode; params?: DiagnosticResult['params'] };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * The Test page's checks, each doing the real thing on this instance: a query, the token service, two users and a
 * row between them, a registration. They run only where diagnostics are enabled (ADR 0045), and once the instance
 * has an administrator, only for them (ADR 0086).
 */
export class DiagnosticsService {
  /** Set once an administrator is seen: from then on the page stays the administrator's in this process. */
  private administered = false;

  constructor(private readonly deps: DiagnosticsServiceDeps) {}

  /**
   * Whether only the administrator may use diagnostics: true once the instance has one. Before that (a fresh
   * instance) the page is open, so the first run can be checked before anyone registers.
   */
  async adminOnly(): Promise<boolean> {
    if (!this.deps.enabled) return false;
    if (!this.administered)
      this.administered = await this.deps.transactions.system('diagnostics: administrator', (tx) =>
        this.deps.auth.adminExistsIn(tx),
      );
    return this.administered;
  }

  async info(): Promise<DiagnosticsInfo> {
    if (!this.deps.enabled) return { enabled: false };
    const { config, settings } = this.deps;
    const current = settings.current();
    const missing: MissingConfigCode[] = [];
    if (!config.appSecret) missing.push('app_secret');
    if (current.ai.provider !== 'openai') missing.push('openai_key');
    if (current.meta.mode !== 'live') missing.push('meta_app');
    if (current.stripe.mode !== 'stripe') missing.push('stripe');
    if (current.mail.mode !== 'smtp') missing.push('smtp');
    const databaseVersion = await this.deps.transactions
      .system('diagnostics: version', (tx) => this.deps.repository.serverVersion(tx))
      .catch(() => 'unavailable');
    return {
      enabled: true,
      environment: {
        mode: config.env,
        database: this.deps.database.kind,
        role: config.role,
        versions: { app: this.deps.appVersion, node: process.version, database: databaseVersion },
        providers: {
          ai: current.ai.provider,
          meta: current.meta.mode,
          billing: current.stripe.mode,
          mail: current.mail.mode,
        },
        missing,
      },
    };
  }

  async run(test: DiagnosticTest, address: string): Promise<DiagnosticResult> {
    if (!this.deps.enabled)
      throw new AppError('DIAGNOSTICS_DISABLED', 'Diagnostics are disabled on this instance', 403);
    const rules = [...(test === 'registration' ? [DIAGNOSTICS_LIMITS.registration] : []), DIAGNOSTICS_LIMITS.checks];
    await this.deps.limiter.take(rules, { account: '', address }, TOO_MANY_CHECKS);
    const began = performance.now();
    const outcome = await this.check(test, address);
    return {
      test,
      status: outcome.status,
      code: outcome.code,
      params: outcome.params ?? {},
      durationMs: Math.round(performance.now() - began),
    };
  }

  private check(test: DiagnosticTest, address: string): Promise<Outcome> {
    switch (test) {
      case 'database':
        return this.database();
      case 'auth':
        return this.authService();
      case 'rls':
        return this.rowLevelSecurity();
      case 'database-access':
        return this.databaseAccess();
      case 'registration':
        return this.registration(address);
    }
  }

  private async database(): Promise<Outcome> {
    const began = performance.now();
    try {
      await this.deps.transactions.system('diagnostics: database', (tx) => this.deps.repository.serverVersion(tx));
      return {
        status: 'passed',
        code: 'database_connected',
        params: { latencyMs: Math.round(performance.now() - began) },
      };
    } catch (error) {
      return { status: 'failed', code: 'database_failed', params: { error: errorText(error) } };
    }
  }

  /** The token service signs and verifies, refuses a forged token, and no session answers for an unknown one. */
  private async authService(): Promise<Outcome> {
    try {
      const claims = { userId: crypto.randomUUID(), sessionId: crypto.randomUUID(), role: 'user' as const };
      const token = await this.deps.accessTokens.sign(claims);
      const verified = await this.deps.accessTokens.verify(token);
      const forged = await this.deps.accessTokens.verify(`${token.slice(0, -4)}AAAA`);
      const role = await this.deps.auth.sessionRole(claims.sessionId, claims.userId);
      if (verified?.userId !== claims.userId || forged !== null || role !== null)
        return { status: 'failed', code: 'auth_failed', params: { error: 'token round trip disagreed' } };
      return { status: 'passed', code: 'auth_working' };
    } catch (error) {
      return { status: 'failed', code: 'auth_failed', params: { error: errorText(error) } };
    }
  }

  /**
   * Two probe users, A and B; B writes a row of a tenant table. As B the row is there (the probe is not vacuous), as
   * A it is not, and with no user set (the plain handle, as an unauthenticated query) it is not either.
   */
  private async rowLevelSecurity(): Promise<Outcome> {
    const { transactions } = this.deps;
    const probe = this.deps.auth.probes;
    let ids: string[] = [];
    try {
      const created = await transactions.system('diagnostics: rls users', (tx) =>
        probe.createUsers(tx, [probe.email('rls-a'), probe.email('rls-b')]),
      );
      ids = created.map((row) => row.id);
      const [a, b] = ids as [string, string];
      const expiresAt = new Date(this.deps.now().getTime() + 60_000);
      await transactions.user(b, (tx) => probe.insertOwnRow(tx, hashToken(randomToken()), expiresAt));
      const asOwner = await transactions.user(b, (tx) => probe.countRowsOf(tx, b));
      const asOther = await transactions.user(a, (tx) => probe.countRowsOf(tx, b));
      const withoutUser = await probe.countRowsWithoutUser(b);
      if (asOwner !== 1)
        return { status: 'failed', code: 'rls_failed', params: { error: 'the owner cannot read its row' } };
      if (asOther > 0) return { status: 'failed', code: 'rls_leak' };
      if (withoutUser > 0) return { status: 'warning', code: 'rls_readable_without_auth' };
      return { status: 'passed', code: 'rls_configured' };
    } catch (error) {
      return { status: 'failed', code: 'rls_failed', params: { error: errorText(error) } };
    } finally {
      await transactions.system('diagnostics: rls cleanup', (tx) => probe.deleteUsers(tx, ids)).catch(() => undefined);
    }
  }

  private async databaseAccess(): Promise<Outcome> {
    try {
      const { plans, users } = await this.deps.transactions.system('diagnostics: database access', async (tx) => ({
        plans: await this.deps.plans.planSampleIn(tx, DIAGNOSTICS_PLAN_LIMIT),
        users: await this.deps.auth.countUsersIn(tx),
      }));
      if (plans === null) return { status: 'warning', code: 'database_access_no_plans_table', params: { users } };
      return { status: 'passed', code: 'database_access_completed', params: { users, plans } };
    } catch (error) {
      return { status: 'failed', code: 'database_access_failed', params: { error: errorText(error) } };
    }
  }

  /** Registers a throwaway user through the real sign-up, signs in as it, and deletes it again. */
  private async registration(address: string): Promise<Outcome> {
    const email = this.deps.auth.probes.email('signup');
    const password = `Pr0be-${randomToken(12)}`;
    let userId: string | undefined;
    try {
      const registered = await this.deps.auth.register(
        { name: 'Diagnostics probe', email, password },
        { ip: address, userAgent: undefined },
      );
      userId = registered.session.user.id;
      const signedIn = await this.deps.auth.login({ email, password }, { ip: address, userAgent: undefined });
      if (signedIn.session.user.id !== userId)
        return { status: 'failed', code: 'registration_failed', params: { error: 'signed in as another user' } };
      return { status: 'passed', code: 'registration_completed' };
    } catch (error) {
      return { status: 'failed', code: 'registration_failed', params: { error: errorText(error) } };
    } finally {
      const id = userId;
      if (id)
        await this.deps.transactions
          .system('diagnostics: signup cleanup', (tx) => this.deps.auth.probes.deleteUsers(tx, [id]))
          .catch(() => undefined);
    }
  }
}
