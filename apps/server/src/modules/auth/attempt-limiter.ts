import type { ErrorCode } from '@adpilot/contracts';
import type { SystemTx } from '@adpilot/db';
import { createHmac } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';

/**
 * What a limit counts by: the account (an e-mail address), the client's address, the pair of both, or the account
 * on one known browser (its device cookie, ADR 0087).
 */
export type LimitScope = 'account' | 'address' | 'account-address' | 'account-device';

export interface LimitRule {
  /** What is counted, e.g. 'login:account'. */
  name: string;
  scope: LimitScope;
  max: number;
  windowSeconds: number;
}

/** Who attempts: the account asked for, the address asking and, from a known browser, its device id. */
export interface Requester {
  account: string;
  address: string;
  device?: string;
}

/**
 * Fixed-window attempt counters kept in the database, so a limit holds across every API process. An attempt is
 * counted before the work it guards (a password check, a mail), atomically, so concurrent attempts cannot all read
 * "one left" (ADR 0018). Keys are HMACs: the table never holds an e-mail address or an IP in clear.
 */
export class AttemptLimiter {
  constructor(
    private readonly repository: RateLimitRepository,
    private readonly key: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private digest(subject: string): string {
    return createHmac('sha256', this.key).update(subject).digest('hex').slice(0, 40);
  }

  private bucketKey(rule: LimitRule, who: Requester): string {
    if (rule.scope === 'account') return `${rule.name}:${this.digest(who.account)}`;
    if (rule.scope === 'address') return `${rule.name}:${this.digest(who.address)}`;
    if (rule.scope === 'account-device') {
      if (!who.device) throw new Error(`rule ${rule.name} counts by device, and the attempt names none`);
      return `${rule.name}:${this.digest(who.account)}:${this.digest(who.device)}`;
    }
    return `${rule.name}:${this.digest(who.account)}:${this.digest(who.address)}`;
  }

  /**
   * Counts one attempt against each rule, in order, and throws a 429 with Retry-After at the first rule used up. The
   * rules after it are not charged: attempts refused by a narrow limit do not spend a wider budget.
   */
  async take(
    rules: readonly LimitRule[],
    who: Requester,
    message: string,
    code: ErrorCode = 'RATE_LIMITED',
  ): Promise<void> {
    for (const rule of rules) {
      const now = this.now();
      const bucket = await this.repository.take(
        this.bucketKey(rule, who),
        now,
        new Date(now.getTime() + rule.windowSeconds * 1000),
      );
      if (bucket.count > rule.max) {
        throw AppError.tooManyRequests(message, (bucket.resetAt.getTime() - now.getTime()) / 1000, code);
      }
    }
  }

  /** Gives back the attempt `take` counted (it turned out not to be a guess). */
  async refund(rules: readonly LimitRule[], who: Requester): Promise<void> {
    for (const rule of rules) await this.repository.refund(this.bucketKey(rule, who), this.now());
  }

  async clear(rules: readonly LimitRule[], who: Requester): Promise<void> {
    for (const rule of rules) await this.repository.delete(this.bucketKey(rule, who));
  }

  /** Forgets every count of an account under these rules, from every address (after a password reset). */
  /** Drops every window already closed at `now`, in the caller's unit of work (the maintenance run). */
  purgeClosed(tx: SystemTx, now: Date): Promise<number> {
    return this.repository.purgeClosed(tx, now);
  }

  async clearAccount(rules: readonly LimitRule[], account: string): Promise<void> {
    for (const rule of rules) {
      if (rule.scope !== 'address') await this.repository.deleteTree(`${rule.name}:${this.digest(account)}`);
    }
  }
}
