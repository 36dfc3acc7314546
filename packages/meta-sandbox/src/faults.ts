import { z } from 'zod';
import { createRng, hashString, type Rng } from './world/random.ts';

export const faultConfigSchema = z.strictObject({
  /** The next `count` Graph calls (of one account, when given) answer a rate-limit error. */
  rateLimit: z
    .strictObject({
      count: z.number().int().min(0),
      regainMinutes: z.number().min(0).optional(),
      code: z
        .union([z.literal(4), z.literal(17), z.literal(32), z.literal(613), z.literal(80000), z.literal(80004)])
        .optional(),
      accountId: z.string().optional(),
    })
    .optional(),
  /** Every user token (true) or this one token answers 190/463 "session has expired". */
  expiredToken: z.union([z.boolean(), z.string()]).optional(),
  /** The next `count` Graph calls answer HTTP 500 with is_transient. */
  serverError: z.strictObject({ count: z.number().int().min(0) }).optional(),
  /** Delay before every Graph answer. */
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /**
   * A delay drawn for every Graph answer (a batch is one answer) from a log-normal distribution fitted to its median
   * and 99th percentile, as Meta's answer times spread: most near the median, a long tail. The same seed draws the
   * same delays in the same order. Replaces `latencyMs` when both are given.
   */
  latency: z
    .strictObject({
      p50Ms: z.number().min(0).max(60_000),
      p99Ms: z.number().min(0).max(60_000),
      seed: z.string().max(200).optional(),
    })
    .refine((latency) => latency.p99Ms >= latency.p50Ms, { message: 'p99Ms must be at least p50Ms' })
    .optional(),
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;
export type RateLimitFault = NonNullable<FaultConfig['rateLimit']>;
export type LatencyFault = NonNullable<FaultConfig['latency']>;

/** The standard normal's 99th percentile: ln(p99 / p50) = 2.3263 σ for a log-normal. */
const Z99 = 2.326_347_874;

/**
 * Draws delays from the log-normal whose median is `p50Ms` and whose 99th percentile is `p99Ms`
 * (μ = ln p50, σ = ln(p99 / p50) / z₀.₉₉), from a seeded generator (Box–Muller on its uniforms).
 */
export class LatencyDistribution {
  private readonly rng: Rng;
  private readonly mu: number;
  private readonly sigma: number;

  constructor(private readonly fault: LatencyFault) {
    this.rng = createRng(hashString(fault.seed ?? 'latency'));
    this.mu = Math.log(Math.max(fault.p50Ms, Number.MIN_VALUE));
    this.sigma = fault.p50Ms > 0 ? Math.log(fault.p99Ms / fault.p50Ms) / Z99 : 0;
  }

  /** The next delay in whole milliseconds (never above 60 s). */
  next(): number {
    if (this.fault.p50Ms === 0) return 0;
    const u1 = 1 - this.rng.next();
    const u2 = this.rng.next();
    const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.min(60_000, Math.round(Math.exp(this.mu + this.sigma * normal)));
  }
}

/** Faults a test switches on; counted faults wear off one call at a time. */
export class Faults {
  private config: FaultConfig = {};
  private latency: LatencyDistribution | undefined;

  /** Replaces the whole configuration; `set({})` is the same as `clear()`. A latency setting starts its seed anew. */
  set(config: FaultConfig): void {
    this.config = faultConfigSchema.parse(structuredClone(config));
    this.latency = this.config.latency ? new LatencyDistribution(this.config.latency) : undefined;
  }

  clear(): void {
    this.config = {};
    this.latency = undefined;
  }

  get current(): FaultConfig {
    return structuredClone(this.config);
  }

  get latencyMs(): number {
    return this.config.latencyMs ?? 0;
  }

  /** The delay before the next Graph answer: a draw from the distribution when one is set, else `latencyMs`. */
  nextLatencyMs(): number {
    return this.latency ? this.latency.next() : this.latencyMs;
  }

  isTokenExpired(token: string): boolean {
    const { expiredToken } = this.config;
    return expiredToken === true || (typeof expiredToken === 'string' && expiredToken === token);
  }

  takeServerError(): boolean {
    const fault = this.config.serverError;
    if (!fault || fault.count <= 0) return false;
    fault.count--;
    return true;
  }

  takeRateLimit(accountId: string | undefined): RateLimitFault | undefined {
    const fault = this.config.rateLimit;
    if (!fault || fault.count <= 0) return undefined;
    if (fault.accountId && fault.accountId.replace(/^act_/, '') !== accountId) return undefined;
    fault.count--;
    return { ...fault };
  }
}
