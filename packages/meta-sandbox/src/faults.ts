import { z } from 'zod';

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
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;
export type RateLimitFault = NonNullable<FaultConfig['rateLimit']>;

/** Faults a test switches on; counted faults wear off one call at a time. */
export class Faults {
  private config: FaultConfig = {};

  /** Replaces the whole configuration; `set({})` is the same as `clear()`. */
  set(config: FaultConfig): void {
    this.config = faultConfigSchema.parse(structuredClone(config));
  }

  clear(): void {
    this.config = {};
  }

  get current(): FaultConfig {
    return structuredClone(this.config);
  }

  get latencyMs(): number {
    return this.config.latencyMs ?? 0;
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
