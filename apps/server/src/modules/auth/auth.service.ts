import {
  ACCOUNT_MESSAGES,
  DEMO_OWNER_EMAIL,
  DEMO_SESSION_SECONDS,
  DEMO_VISITOR_EMAIL,
  isDemoEmail,
  type AccountSession,
  type ChangePassword,
  LOGIN_CODE_TTL_SECONDS,
  PASSWORD_RESET_TTL_SECONDS,
  REFRESH_RACE_GRACE_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  type LoginCodeRequest,
  type LoginRequest,
  type RefreshResponse,
  type RegisterRequest,
  type Session,
  type User,
} from '@adpilot/contracts';
import type { PersonTx, SystemTx, Transactions, UserTx } from '@adpilot/db';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { AccessTokens } from './access-token.ts';
import type { AttemptLimiter, LimitRule, Requester } from './attempt-limiter.ts';
import type { DeviceCookies } from './device-cookie.ts';
import { LOGIN_CODE_MAIL, LOGIN_CODE_REQUESTED_MESSAGE, type LoginCodes } from './login-code.ts';
import { presentUser } from './auth.presenter.ts';
import type { AuthRepository } from './auth.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { probeEmail } from './probe-users.ts';
import { SESSION_CHANNEL, type SessionCache } from './session-cache.ts';

/**
 * Sign-in attempts are counted per account × address (the owner keeps signing in from elsewhere while someone
 * guesses), per address (one address spraying many accounts) and per account over a longer window (the budget that
 * bounds guessing spread over many addresses). ADR 0018 has the reasoning behind the numbers. A browser the user
 * signed in with before counts its own small budget instead of the account's, and an e-mailed code lets the owner
 * past a spent account budget (ADR 0087); the pair and address limits hold for everyone.
 */
const LIMITS = {
  loginPair: { name: 'login:account-address', scope: 'account-address', max: 5, windowSeconds: 15 * 60 },
  loginAddress: { name: 'login:address', scope: 'address', max: 30, windowSeconds: 15 * 60 },
  loginAccount: { name: 'login:account', scope: 'account', max: 50, windowSeconds: 60 * 60 },
  loginDevice: { name: 'login:account-device', scope: 'account-device', max: 10, windowSeconds: 60 * 60 },
  codeAccount: { name: 'login-code:account', scope: 'account', max: 3, windowSeconds: 60 * 60 },
  codeAddress: { name: 'login-code:address', scope: 'address', max: 10, windowSeconds: 60 * 60 },
  resetPair: { name: 'reset:account-address', scope: 'account-address', max: 3, windowSeconds: 60 * 60 },
  resetAddress: { name: 'reset:address', scope: 'address', max: 20, windowSeconds: 60 * 60 },
  resetAccount: { name: 'reset:account', scope: 'account', max: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, LimitRule>;
/** Narrowest first: an attempt refused by the pair limit never spends the account's budget. */
const LOGIN_RULES = [LIMITS.loginPair, LIMITS.loginAddress, LIMITS.loginAccount, LIMITS.loginDevice];
const CODE_RULES = [LIMITS.codeAccount, LIMITS.codeAddress];
const RESET_RULES = [LIMITS.resetPair, LIMITS.resetAddress, LIMITS.resetAccount];

const TOO_MANY_REGISTRATIONS = 'Too many sign-ups from this address. Please try again later.';
const TOO_MANY_LOGINS = 'Too many failed sign-in attempts. Please try again later.';
const ACCOUNT_LIMITED =
  'Too many failed sign-in attempts on this account. Ask for a sign-in code by e-mail, or sign in from a browser you used before.';
const TOO_MANY_CODES = 'Too many sign-in codes asked for. Please try again later.';
const invalidLoginCode = () =>
  AppError.unauthorized('This sign-in code is wrong, used or expired. Ask for a new one.', 'INVALID_LOGIN_CODE');
const TOO_MANY_RESETS = 'Too many password reset requests. Please try again later.';
export const RESET_REQUESTED_MESSAGE = 'If an account exists for that email, a password reset link has been sent.';
/**
 * The reset e-mail in the language of the page it was asked from. It does not greet by name: the name is whatever
 * was typed at sign-up, and the address is not confirmed, so it could put someone else's words in our mail.
 */
const RESET_MAIL = {
  en: (link: string) => ({
    subject: 'Reset your AdPilot password',
    text: `Hello,\n\nSomeone asked to reset the password of your AdPilot account. If it was you, open this link within an hour:\n\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
  }),
  th: (link: string) => ({
    subject: 'ตั้งรหัสผ่าน AdPilot ใหม่',
    text: `สวัสดี\n\nมีผู้ขอตั้งรหัสผ่านใหม่สำหรับบัญชี AdPilot ของคุณ หากเป็นคุณ โปรดเปิดลิงก์นี้ภายในหนึ่งชั่วโมง:\n\n${link}\n\nหากไม่ใช่คุณ ไม่ต้องทำอะไร รหัสผ่านของคุณจะยังคงเดิม\n`,
  }),
} as const;

export const PASSWORD_RESET_DONE_MESSAGE = 'Your password has been reset. You can now sign in.';

/** What sign-up asks of the workspaces module, in its own unit of work (ADR 0066). */
export interface PersonalWorkspaces {
  createPersonal(tx: SystemTx, owner: { id: string; name: string }): Promise<string>;
}

export interface AuthServiceDeps {
  transactions: Transactions;
  repository: AuthRepository;
  /** The workspaces module's public API: a new user's personal workspace. */
  workspaces: PersonalWorkspaces;
  accessTokens: AccessTokens;
  limiter: AttemptLimiter;
  /** The known-browser cookie (ADR 0087). */
  devices: DeviceCookies;
  /** One-time sign-in codes by e-mail (ADR 0087). */
  loginCodes: LoginCodes;
  mailer: Mailer;
  publicUrl: string;
  /** Which sessions are live, kept in memory while the database's notifications keep it right. */
  sessions: SessionCache;
  /** Sign-ups per address an hour; 0: no limit (the suites, a benchmark). */
  registrationsPerHour: number;
  now: () => Date;
}

/** An account's address, and whether a confirmation link proved it (ADR 0054). */
export interface VerifiedAddress {
  email: string;
  verified: boolean;
  verifiedAt: Date | null;
}

/** Where a request came from, kept with the session it starts or refreshes (My account's sessions). */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/** A sign-in's session, and the device cookie the browser keeps for its next sign-in (ADR 0087). */
export interface SignIn {
  session: Session;
  device: string;
}

/** What lets a sign-in past the account's budget: a known browser, a live e-mailed code, or a slot of the budget. */
type AccountPass =
  | { kind: 'device'; refund: LimitRule[] }
  | { kind: 'code'; codeHash: string; refund: LimitRule[] }
  | { kind: 'budget'; refund: LimitRule[] };

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * One address gets `registrationsPerHour` sign-ups, counted before the password is hashed (the costly part), so a
   * flood of parallel sign-ups is refused instead of taking every core.
   */
  async register(input: RegisterRequest, client: ClientInfo): Promise<SignIn> {
    const { ip } = client;
    // The demo's users are nobody's to claim (ADR 0185), even before the demo first made them.
    if (isDemoEmail(input.email)) throw AppError.conflict('An account with this email already exists', 'EMAIL_TAKEN');
    const { registrationsPerHour } = this.deps;
    if (registrationsPerHour > 0) {
      const rule: LimitRule = {
        name: 'register:address',
        scope: 'address',
        max: registrationsPerHour,
        windowSeconds: 3600,
      };
      await this.deps.limiter.take([rule], { account: '', address: ip }, TOO_MANY_REGISTRATIONS);
    }
    const passwordHash = await hashPassword(input.password);
    const { repository, workspaces } = this.deps;
    // The user and their personal workspace commit together, or neither does (ADR 0070).
    const row = await this.deps.transactions.system('sign-up', async (tx) => {
      const user = await repository.createUser(tx, { name: input.name, email: input.email, passwordHash });
      if (user) await workspaces.createPersonal(tx, { id: user.id, name: user.name });
      return user;
    });
    if (!row) throw AppError.conflict('An account with this email already exists', 'EMAIL_TAKEN');
    return { session: await this.startSession(presentUser(row), client), device: this.deps.devices.issue(row.id) };
  }

  /**
   * The attempt is counted before the password is checked, so concurrent guesses cannot overrun a limit. Every
   * attempt takes a slot of the account × address and address limits; then one of the account's passes (see
   * `accountPass`). A success issues a new device cookie for the browser.
   */
  async login(input: LoginRequest, client: ClientInfo, deviceCookie?: string): Promise<SignIn> {
    const { ip } = client;
    const { limiter, repository } = this.deps;
    await limiter.take([LIMITS.loginPair, LIMITS.loginAddress], { account: input.email, address: ip }, TOO_MANY_LOGINS);
    const row = await repository.findUserByEmail(input.email);
    const known = this.deps.devices.verify(deviceCookie);
    const who: Requester = {
      account: input.email,
      address: ip,
      device: row && known?.userId === row.id ? known.deviceId : undefined,
    };
    const pass = await this.accountPass(row?.id, input.code, who);
    const valid = await verifyPassword(row?.passwordHash, input.password);
    if (!row || !valid) throw AppError.unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');
    // Of concurrent sign-ins with one code, only the one that takes it gets in.
    if (pass.kind === 'code' && !(await repository.takeLoginCode(row.id, pass.codeHash, this.deps.now()))) {
      throw invalidLoginCode();
    }
    // The owner's typos from this address are forgiven; a success was no guess, so it spends no wider budget.
    await limiter.clear([LIMITS.loginPair], who);
    await limiter.refund([LIMITS.loginAddress, ...pass.refund], who);
    return { session: await this.startSession(presentUser(row), client), device: this.deps.devices.issue(row.id) };
  }

  /**
   * How a sign-in passes the account's budget (ADR 0087). A browser that signed in to this account before counts
   * its own small budget instead, so guesses from elsewhere cannot lock it out. A live e-mailed code passes without
   * a slot (the code is taken once the password is right). Any other attempt takes a slot of the account's budget,
   * and a code that is not live is a failure, counted there before anything else is checked.
   */
  private async accountPass(
    userId: string | undefined,
    code: string | undefined,
    who: Requester,
  ): Promise<AccountPass> {
    const { limiter, repository } = this.deps;
    if (who.device) {
      await limiter.take([LIMITS.loginDevice], who, TOO_MANY_LOGINS);
      return { kind: 'device', refund: [LIMITS.loginDevice] };
    }
    if (code && userId) {
      const codeHash = this.deps.loginCodes.hash(userId, code);
      if (await repository.isLoginCodeLive(userId, codeHash, this.deps.now()))
        return { kind: 'code', codeHash, refund: [] };
    }
    await limiter.take([LIMITS.loginAccount], who, ACCOUNT_LIMITED, 'LOGIN_ACCOUNT_LIMITED');
    if (code) throw invalidLoginCode();
    return { kind: 'budget', refund: [LIMITS.loginAccount] };
  }

  /**
   * E-mails a one-time sign-in code, the way past a spent account budget from a new browser (ADR 0087). Answers
   * the same whether or not the address has an account; a few codes an hour per account and per address.
   */
  async requestLoginCode(input: LoginCodeRequest, ip: string): Promise<string> {
    const { limiter, repository, loginCodes } = this.deps;
    await limiter.take(CODE_RULES, { account: input.email, address: ip }, TOO_MANY_CODES);
    const user = await repository.findUserByEmail(input.email);
    if (!user) return LOGIN_CODE_REQUESTED_MESSAGE;
    const code = loginCodes.generate();
    const expiresAt = new Date(this.deps.now().getTime() + LOGIN_CODE_TTL_SECONDS * 1000);
    await repository.insertLoginCode({ userId: user.id, codeHash: loginCodes.hash(user.id, code), expiresAt });
    await this.deps.mailer.send({ to: user.email, expiresAt, ...LOGIN_CODE_MAIL[input.language ?? 'en'](code) });
    return LOGIN_CODE_REQUESTED_MESSAGE;
  }

  /**
   * Rotates a refresh token. Presenting one that was already rotated ends its whole family, unless it was rotated
   * a moment ago: two tabs of one browser raced, and the loser is told to use the successor the winner stored
   * (ADR 0079). It gets no tokens, so a thief gains nothing from the grace either.
   */
  async refresh(refreshToken: string, client?: ClientInfo): Promise<RefreshResponse> {
    const { repository } = this.deps;
    const now = this.deps.now();
    const stored = await repository.findRefreshToken(hashToken(refreshToken));
    if (!stored) throw AppError.unauthorized('Invalid refresh token');
    if (stored.revokedAt) throw AppError.unauthorized('Session has ended, please sign in again');
    if (stored.usedAt || !(await repository.consumeRefreshToken(stored.id, now))) {
      // Not used when read, yet not consumable: a parallel request used it this instant (or ended the session).
      const usedAt = stored.usedAt ?? now;
      if (now.getTime() - usedAt.getTime() < REFRESH_RACE_GRACE_SECONDS * 1000) {
        throw AppError.conflict(
          'This session was refreshed a moment ago in another tab; use the newest tokens',
          'REFRESH_TOKEN_ROTATED',
        );
      }
      await this.endSession(stored.familyId, now);
      throw AppError.unauthorized('Refresh token reuse detected; please sign in again');
    }
    if (stored.expiresAt <= now) throw AppError.unauthorized('Refresh token expired, please sign in again');
    const user = await repository.findUserById(stored.userId);
    if (!user) throw AppError.unauthorized('Invalid refresh token');
    // A demo session stays a demo session, and a refresh never moves its end (ADR 0185).
    if (user.email === DEMO_VISITOR_EMAIL)
      return this.issueTokens(presentUser(user), stored.familyId, undefined, {
        demo: true,
        expiresAt: stored.expiresAt,
      });
    return this.issueTokens(presentUser(user), stored.familyId, client);
  }

  async logout(refreshToken: string | undefined, sessionId: string | undefined): Promise<void> {
    const now = this.deps.now();
    if (sessionId) await this.endSession(sessionId, now);
    if (refreshToken) {
      const stored = await this.deps.repository.findRefreshToken(hashToken(refreshToken));
      if (stored) await this.endSession(stored.familyId, now);
    }
  }

  /** Revokes a session; this process forgets it before answering, the others when the database tells them. */
  private async endSession(familyId: string, at: Date): Promise<void> {
    await this.deps.repository.revokeFamily(familyId, at);
    this.deps.sessions.evictSession(familyId);
  }

  async me(userId: string): Promise<User> {
    const row = await this.deps.repository.ownUser(userId);
    if (!row) throw AppError.unauthorized('User no longer exists');
    return presentUser(row);
  }

  /**
   * The role of the session's user while the session lives, else null (see `AuthRepository.liveSession`), from the
   * session cache when it may be trusted (see `SessionCache`).
   */
  sessionRole(sessionId: string, userId: string): Promise<User['role'] | null> {
    return this.deps.sessions.role(sessionId, userId, () =>
      this.deps.repository.liveSession(sessionId, userId, this.deps.now()),
    );
  }

  // My account (issue 31): the person's own sessions and password.

  /** GET /api/account/sessions: the live sessions, the newest seen first, the caller's own marked. */
  async sessionsOf(userId: string, currentSessionId: string): Promise<AccountSession[]> {
    const sessions = await this.deps.repository.liveSessionsOf(userId, this.deps.now());
    return sessions
      .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
      .map((session) => ({
        id: session.id,
        device: session.device,
        address: session.address,
        signedInAt: session.signedInAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        current: session.id === currentSessionId,
      }));
  }

  /** DELETE /api/account/sessions/:id: signs one of the person's sessions out (404 for anyone else's). */
  async endOwnSession(userId: string, sessionId: string): Promise<void> {
    if (!(await this.deps.repository.revokeOwnFamily(userId, sessionId, this.deps.now())))
      throw AppError.notFound(ACCOUNT_MESSAGES.sessionUnknown);
    this.deps.sessions.evictSession(sessionId);
  }

  /** Refuses (403) unless `password` is the user's own: asked before a password change or an account's deletion. */
  async confirmPassword(userId: string, password: string): Promise<void> {
    const row = await this.deps.repository.ownUser(userId);
    if (!(await verifyPassword(row?.passwordHash, password)))
      throw new AppError('ACCOUNT_PASSWORD_WRONG', ACCOUNT_MESSAGES.wrongPassword, 403, [
        { field: 'currentPassword', message: ACCOUNT_MESSAGES.wrongPassword },
      ]);
  }

  /** POST /api/account/password: the current password asked, every other session ends (their refresh refused). */
  async changePassword(userId: string, sessionId: string, input: ChangePassword): Promise<void> {
    await this.confirmPassword(userId, input.currentPassword);
    const passwordHash = await hashPassword(input.newPassword);
    await this.deps.repository.changePassword(userId, passwordHash, sessionId, this.deps.now());
    this.deps.sessions.evictUser(userId);
  }

  /** PATCH /api/account's name. */
  async rename(userId: string, name: string): Promise<User> {
    const row = await this.deps.repository.rename(userId, name, this.deps.now());
    if (!row) throw AppError.unauthorized('User no longer exists');
    return presentUser(row);
  }

  // What other modules ask of the users and their sessions, each in the caller's unit of work (ADR 0066).

  /**
   * Deletes a user in the caller's unit of work (an account's deletion): their sessions, personal workspace and
   * memberships go with the row; activity keeps its entries with no actor. Forgets their sessions in this process.
   */
  async deleteUserIn(tx: SystemTx, userId: string): Promise<void> {
    await this.deps.repository.deleteUsers(tx, [userId]);
  }

  /** Forgets every cached session of a user (after their deletion committed). */
  forgetUser(userId: string): void {
    this.deps.sessions.evictUser(userId);
  }

  /**
   * The clean-up's part of auth: reset links expired or used, refresh tokens expired or revoked before
   * `keepRevokedUntil`, and rate-limit windows closed, every tenant's (system path).
   */
  async purgeExpired(
    tx: SystemTx,
    now: Date,
    keepRevokedUntil: Date,
  ): Promise<{ passwordResets: number; loginCodes: number; refreshTokens: number; rateLimitBuckets: number }> {
    const purged = await this.deps.repository.purgeExpired(tx, now, keepRevokedUntil);
    return { ...purged, rateLimitBuckets: await this.deps.limiter.purgeClosed(tx, now) };
  }

  /** The user's address, and whether a confirmation link proved it (ADR 0054). */
  async addressIn(tx: PersonTx): Promise<VerifiedAddress> {
    const row = await this.deps.repository.addressOf(tx);
    if (!row) throw new Error('The user of a tenant transaction has no row');
    const verified = row.verifiedEmail !== null && row.verifiedEmail === row.email;
    return { email: row.email, verified, verifiedAt: verified ? row.verifiedAt : null };
  }

  /** Marks `email` the user's proved address, only while it still is their address; false when it no longer is. */
  confirmAddressIn(tx: SystemTx, userId: string, email: string): Promise<boolean> {
    return this.deps.repository.markEmailVerified(tx, userId, email);
  }

  /** The user's e-mail address (billing's mail and Stripe customer). */
  async emailIn(tx: PersonTx): Promise<string | undefined> {
    return (await this.deps.repository.addressOf(tx))?.email;
  }

  /** The addresses of the given users (a workspace's owners, for billing mail). */
  emailsIn(tx: SystemTx, ids: readonly string[]): Promise<string[]> {
    return this.deps.repository.emails(tx, ids);
  }

  /** The proved addresses of the given users (outbound mail's members, ADR 0092). */
  verifiedEmailsIn(tx: SystemTx, ids: readonly string[]): Promise<string[]> {
    return this.deps.repository.verifiedEmails(tx, ids);
  }

  /** Names and addresses of the given users (a workspace's members list). */
  profilesIn(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string; email: string }[]> {
    return this.deps.repository.profiles(tx, ids);
  }

  /** Whether a user with this id exists. */
  userExistsIn(tx: SystemTx, userId: string): Promise<boolean> {
    return this.deps.repository.userExists(tx, userId);
  }

  /** Whether the instance has an administrator yet (until then the Test page is open to anyone; ADR 0086). */
  adminExistsIn(tx: SystemTx): Promise<boolean> {
    return this.deps.repository.adminExists(tx);
  }

  /** How many users the instance has. */
  countUsersIn(tx: SystemTx): Promise<number> {
    return this.deps.repository.countUsers(tx);
  }

  /**
   * The Test page's probes on auth's own tables: throwaway users (and their deletion), a row of one of them, and how
   * many of that row each reader sees with nothing but the database's row-level security between them.
   */
  readonly probes = {
    /** A fresh address on the probe domain: a user on it never becomes the administrator (ADR 0086). */
    email: (kind: string) => probeEmail(kind),
    createUsers: (tx: SystemTx, emails: [string, string]) => this.deps.repository.createProbeUsers(tx, emails),
    deleteUsers: (tx: SystemTx, ids: string[]) => this.deps.repository.deleteUsers(tx, ids),
    insertOwnRow: (tx: UserTx, tokenHash: string, expiresAt: Date) =>
      this.deps.repository.insertProbeToken(tx, tokenHash, expiresAt),
    countRowsOf: (tx: UserTx, ownerId: string) => this.deps.repository.countTokensOf(tx, ownerId),
    countRowsWithoutUser: (ownerId: string) => this.deps.repository.countTokensWithoutUser(ownerId),
  };

  /** Resolves once every session change committed so far is known to this process (see `SessionCache.settled`). */
  sessionsSettled(): Promise<void> {
    return this.deps.sessions.settled((marker) => this.deps.repository.notify(SESSION_CHANNEL, marker));
  }

  /** Always answers the same, whether or not the address has an account. */
  async forgotPassword(email: string, ip: string, language: keyof typeof RESET_MAIL = 'en'): Promise<string> {
    const { limiter, repository } = this.deps;
    await limiter.take(RESET_RULES, { account: email, address: ip }, TOO_MANY_RESETS);
    const user = await repository.findUserByEmail(email);
    if (!user) return RESET_REQUESTED_MESSAGE;
    const token = randomToken();
    const expiresAt = new Date(this.deps.now().getTime() + PASSWORD_RESET_TTL_SECONDS * 1000);
    await repository.insertPasswordReset({ userId: user.id, tokenHash: hashToken(token), expiresAt });
    const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await this.deps.mailer.send({ to: user.email, expiresAt, ...RESET_MAIL[language](link) });
    return RESET_REQUESTED_MESSAGE;
  }

  /**
   * Sets a new password with a single-use link: the user's other links die with it, every session ends, and the
   * sign-in counts of the account are forgotten, so a lock someone else caused ends with the reset.
   */
  async resetPassword(token: string, password: string): Promise<string> {
    const { repository, limiter } = this.deps;
    const tokenHash = hashToken(token);
    const invalid = () => AppError.badRequest('This password reset link is invalid or has expired.', 'INVALID_STATE');
    // Checked first so that a made-up link costs no password hash; the transaction below decides.
    if (!(await repository.isPasswordResetLive(tokenHash, this.deps.now()))) throw invalid();
    const passwordHash = await hashPassword(password);
    const user = await repository.resetPassword({ tokenHash, passwordHash, at: this.deps.now() });
    if (!user) throw invalid();
    this.deps.sessions.evictUser(user.id);
    await limiter.clearAccount(LOGIN_RULES, user.email);
    return PASSWORD_RESET_DONE_MESSAGE;
  }

  /**
   * The demo's owner and visitor (ADR 0185), made once on the system path: the owner with a personal workspace (the
   * plan holder of the demo workspaces it builds), the visitor without one (it only ever views the demo workspace).
   * Their passwords are random and never kept, so nobody signs in as either.
   */
  async demoUsers(): Promise<{ ownerId: string; visitorId: string }> {
    const ensure = async (email: string, name: string, personal: boolean): Promise<string> => {
      const found = await this.deps.repository.findUserByEmail(email);
      if (found) return found.id;
      const passwordHash = await hashPassword(`${randomToken()}aA1`);
      const made = await this.deps.transactions.system('demo user', async (tx) => {
        const user = await this.deps.repository.createUser(tx, { name, email, passwordHash });
        if (user && personal) await this.deps.workspaces.createPersonal(tx, { id: user.id, name: user.name });
        return user;
      });
      // A parallel first visit made it a moment ago.
      const id = made?.id ?? (await this.deps.repository.findUserByEmail(email))?.id;
      if (!id) throw new Error(`demo user ${email} could not be made`);
      return id;
    };
    const ownerId = await ensure(DEMO_OWNER_EMAIL, 'AdPilot demo', true);
    const visitorId = await ensure(DEMO_VISITOR_EMAIL, 'Demo visitor', false);
    return { ownerId, visitorId };
  }

  /**
   * A visitor's demo session (ADR 0185): signed in as the demo's visitor for `DEMO_SESSION_SECONDS` at most, its
   * tokens marked demo (every write refused), with no address or browser kept (visitors share one user).
   */
  async startDemoSession(visitorId: string): Promise<{ session: Session; expiresAt: Date }> {
    const row = await this.deps.repository.findUserById(visitorId);
    if (!row || row.email !== DEMO_VISITOR_EMAIL) throw AppError.unauthorized('Invalid demo user');
    const user = presentUser(row);
    const expiresAt = new Date(this.deps.now().getTime() + DEMO_SESSION_SECONDS * 1000);
    const tokens = await this.issueTokens(user, randomUUID(), undefined, { demo: true, expiresAt });
    return { session: { ...tokens, user }, expiresAt };
  }

  private async startSession(user: User, client: ClientInfo): Promise<Session> {
    const { token, refreshToken } = await this.issueTokens(user, randomUUID(), client);
    return { token, refreshToken, user };
  }

  private async issueTokens(
    user: User,
    familyId: string,
    client?: ClientInfo,
    demo?: { demo: true; expiresAt: Date },
  ): Promise<RefreshResponse> {
    const refreshToken = randomToken();
    const expiresAt = demo?.expiresAt ?? new Date(this.deps.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    await this.deps.repository.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: hashToken(refreshToken),
      expiresAt,
      // Kept as sent, cut to a length a list shows; only the person themself reads it back.
      userAgent: client?.userAgent?.slice(0, 300) ?? null,
      ipAddress: client?.ip ?? null,
    });
    const token = await this.deps.accessTokens.sign({
      userId: user.id,
      sessionId: familyId,
      role: user.role,
      ...(demo ? { demo: true } : {}),
    });
    return { token, refreshToken };
  }
}
