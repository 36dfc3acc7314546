import { createHmac } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimitRepository } from './rate-limit.repository.ts';

export interface LimitRule {
  /** What is counted, e.g. 'login:account'. */
  name: string;
  max: number;
  windowSeconds: number;
}

/**
 * Fixed-window attempt counters kept in the database, so a limit holds across every API process.
 * Keys are HMACs: the table never holds an e-mail address or an IP in clear.
 */
export class AttemptLimiter {
  constructor(
    private readonly repository: RateLimitRepository,
    private readonly key: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private bucketKey(rule: LimitRule, subject: string): string {
    return `${rule.name}:${createHmac('sha256', this.key).update(subject).digest('hex').slice(0, 40)}`;
  }

  /** Throws a 429 with Retry-After when the subject has used up its window. */
  async assertAllowed(rule: LimitRule, subject: string, message: string): Promise<void> {
    const bucket = await this.repository.find(this.bucketKey(rule, subject));
    const now = this.now();
    if (bucket && bucket.resetAt > now && bucket.count >= rule.max) {
      throw AppError.tooManyRequests(message, (bucket.resetAt.getTime() - now.getTime()) / 1000);
    }
  }

  /** Counts one attempt (a failure, or every request for the limits that count requests). */
  record(rule: LimitRule, subject: string): Promise<void> {
    const now = this.now();
    return this.repository.increment(
      this.bucketKey(rule, subject),
      now,
      new Date(now.getTime() + rule.windowSeconds * 1000),
    );
  }

  clear(rule: LimitRule, subject: string): Promise<void> {
    return this.repository.delete(this.bucketKey(rule, subject));
  }
}
