import { randomUUID } from 'node:crypto';
import type { ChannelListener } from '@adpilot/db';
import type { User } from '@adpilot/contracts';

/** The channel on which the database announces (by trigger) that a user's sessions or role changed. */
export const SESSION_CHANNEL = 'adpilot_sessions';

/** What the database says of a live session. */
export interface LiveSession {
  role: User['role'];
  /** The latest expiry among the session's refresh tokens: past it the session is over without any write. */
  expiresAt: Date;
}

interface Entry extends LiveSession {
  userId: string;
  /** Epoch ms until which the entry may answer without asking the database. */
  liveUntil: number;
}

export interface SessionCacheOptions {
  now: () => Date;
  /** A bound on how long an answer is reused even if a notification were lost. */
  ttlMs?: number;
  maxEntries?: number;
}

/**
 * Remembers which sessions are live, so an authenticated request does not need its own database round trip.
 *
 * It stays right across processes because the database announces every change that can end a session or change a
 * role: triggers on `users` (role, delete) and `refresh_tokens` (revoked, expiry, delete) `NOTIFY` the user's id on
 * {@link SESSION_CHANNEL} when their transaction commits, and every process evicts that user's sessions. While the
 * listening connection is down nothing is cached (and everything kept is dropped), and an answer read while an
 * eviction arrived is not kept, so a stale "live" can outlast a revocation only by the notification's delivery time.
 * The process that revokes evicts at once, before it answers (ADR 0014).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  private readonly waiters = new Map<string, () => void>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(private readonly options: SessionCacheOptions) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 50_000;
  }

  /** Hand this to `database.listen(SESSION_CHANNEL, …)`. */
  readonly listener: ChannelListener = {
    onMessage: (payload) => {
      const waiter = this.waiters.get(payload);
      if (waiter) return waiter();
      this.evictUser(payload);
    },
    onReset: (listening) => {
      this.listening = listening;
      this.clear();
    },
  };

  /** The role of a live session, from memory when it may be trusted, otherwise from `load`. */
  async role(sessionId: string, userId: string, load: () => Promise<LiveSession | null>): Promise<User['role'] | null> {
    const now = this.options.now().getTime();
    const hit = this.entries.get(sessionId);
    if (hit && hit.userId === userId && hit.liveUntil > now) return hit.role;
    const generation = this.generation;
    const live = await load();
    if (!live) {
      this.evictSession(sessionId);
      return null;
    }
    // An eviction that arrived while the database was read may concern this very answer: use it, don't keep it.
    if (this.listening && generation === this.generation) this.keep(sessionId, userId, live, now);
    return live.role;
  }

  evictUser(userId: string): void {
    this.generation += 1;
    for (const sessionId of this.byUser.get(userId) ?? []) this.entries.delete(sessionId);
    this.byUser.delete(userId);
  }

  evictSession(sessionId: string): void {
    this.generation += 1;
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    this.byUser.get(entry.userId)?.delete(sessionId);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byUser.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Resolves once every notification committed before the call has been heard: `send(marker)` must notify
   * `marker` on the channel, and notifications arrive in commit order. For tests and for operators' scripts.
   */
  async settled(send: (marker: string) => Promise<void>): Promise<void> {
    if (!this.listening) return;
    const marker = `settled:${randomUUID()}`;
    const heard = new Promise<void>((resolve) => this.waiters.set(marker, resolve));
    await send(marker);
    await heard;
    this.waiters.delete(marker);
  }

  private keep(sessionId: string, userId: string, live: LiveSession, now: number): void {
    if (this.entries.size >= this.maxEntries) this.evictOldest();
    const liveUntil = Math.min(now + this.ttlMs, live.expiresAt.getTime());
    this.entries.set(sessionId, { ...live, userId, liveUntil });
    let sessions = this.byUser.get(userId);
    if (!sessions) this.byUser.set(userId, (sessions = new Set()));
    sessions.add(sessionId);
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.evictSession(oldest.value);
  }
}
