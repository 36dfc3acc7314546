import { z } from 'zod';

const booleanish = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined));

/** Every setting the server reads. This module is the only reader of process.env (a lint rule keeps it so). */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  RATE_LIMIT_MAX: z.coerce.number().int().min(0).max(1_000_000).default(600),
  APP_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TRUST_PROXY: booleanish,
  WEB_DIST_DIR: optionalString,
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_USER: optionalString,
  SMTP_PASS: optionalString,
  SMTP_SECURE: booleanish,
  MAIL_FROM: z.string().default('AdPilot <no-reply@adpilot.local>'),
  META_APP_ID: optionalString,
  META_APP_SECRET: optionalString,
  META_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v25.0')
    .default('v25.0'),
  META_GRAPH_URL: z.url().default('https://graph.facebook.com'),
  META_DIALOG_URL: z.url().default('https://www.facebook.com'),
  META_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  SANDBOX_STATE: booleanish,
  /** Mount the sandbox's fault, stats and reset routes (development and tests only; never in production). */
  SANDBOX_CONTROL_ROUTES: booleanish,
  /** Webhook hosts that may be private addresses (comma-separated names or IPs); none by default (ADR 0039). */
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((host) => host.trim())
        .filter(Boolean),
    ),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  role: Env['ROLE'];
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  /** Requests per minute one address may make before the flood limit answers 429; 0 turns it off. */
  rateLimitMax: number;
  appSecret?: string;
  trustProxy: boolean;
  webDistDir?: string;
  smtp?: { host: string; port: number; user?: string; pass?: string; secure: boolean };
  mailFrom: string;
  /** Webhook hosts allowed although private (tests, intranets). */
  webhookAllowedPrivateHosts: string[];
  meta: {
    /** Without an app id the built-in sandbox stands in for Meta (the embedded default). */
    mode: 'sandbox' | 'live';
    appId?: string;
    appSecret?: string;
    version: string;
    graphUrl: string;
    dialogUrl: string;
    syncIntervalMinutes: number;
    /** The sandbox's `/__sandbox` control routes: only when asked for, and never in production. */
    sandboxControlRoutes: boolean;
  };
}

/** Parses the environment once; on bad input throws one error listing every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (Boolean(env.META_APP_ID) !== Boolean(env.META_APP_SECRET)) {
    throw new Error('Invalid configuration:\n  META_APP_ID and META_APP_SECRET must be set together');
  }
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    role: env.ROLE,
    logLevel: env.LOG_LEVEL,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    rateLimitMax: env.RATE_LIMIT_MAX,
    appSecret: env.APP_SECRET,
    trustProxy: env.TRUST_PROXY,
    webDistDir: env.WEB_DIST_DIR,
    smtp: env.SMTP_HOST
      ? { host: env.SMTP_HOST, port: env.SMTP_PORT, user: env.SMTP_USER, pass: env.SMTP_PASS, secure: env.SMTP_SECURE }
      : undefined,
    mailFrom: env.MAIL_FROM,
    webhookAllowedPrivateHosts: env.WEBHOOK_ALLOWED_PRIVATE_HOSTS,
    meta: {
      mode: env.META_APP_ID ? 'live' : 'sandbox',
      appId: env.META_APP_ID,
      appSecret: env.META_APP_SECRET,
      version: env.META_API_VERSION,
      graphUrl: env.META_GRAPH_URL,
      dialogUrl: env.META_DIALOG_URL,
      syncIntervalMinutes: env.META_SYNC_INTERVAL_MINUTES,
      sandboxControlRoutes: env.SANDBOX_CONTROL_ROUTES && env.NODE_ENV !== 'production',
    },
  };
}
