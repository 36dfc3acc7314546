import { marketingApiEndOfLife } from '@adpilot/meta';
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
  /** Where a worker reaches an API process: the sandbox's Graph calls (default PUBLIC_URL). */
  INTERNAL_URL: z.url().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** ROLE=worker only: answer GET /api/health and /api/ready on this port (a container's probe); unset, no HTTP. */
  HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** How long a SIGTERM waits for in-flight requests and running jobs before the process exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines when standard output is a terminal, JSON lines otherwise (piped, a container's log). */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Rule runs one worker process runs at once (the `rule-run` job's concurrency). */
  RULE_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  RATE_LIMIT_MAX: z.coerce.number().int().min(0).max(1_000_000).default(600),
  REGISTRATION_LIMIT_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(20),
  /** MCP tool calls one agent credential may make a minute, across every API process (ADR 0152); 0: no limit. */
  MCP_TOOL_CALLS_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(60),
  /** Browser origins besides PUBLIC_URL's that may call /mcp (comma-separated); any other Origin is refused. */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim().replace(/\/$/, ''))
        .filter(Boolean),
    ),
  APP_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The bearer token a Prometheus server scrapes GET /api/metrics with; without it only the administrator may. */
  METRICS_TOKEN: z
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
    .regex(/^v\d+\.\d+$/, 'must look like v27.0')
    .default('v27.0'),
  /**
   * The day Meta ends META_API_VERSION (YYYY-MM-DD); unset, the date Meta's version history gives (none yet for
   * v27.0). The account cards warn before it.
   */
  META_API_VERSION_ENDS_AT: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2027-11-04')
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'must be a real date')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  META_GRAPH_URL: z.url().default('https://graph.facebook.com'),
  META_DIALOG_URL: z.url().default('https://www.facebook.com'),
  META_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /** Activity entries older than this many days are deleted by the daily retention job. */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often the live log stream sends a heartbeat comment (tests shorten it). */
  LOG_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(10).max(300_000).default(15_000),
  SANDBOX_STATE: booleanish,
  /** AI provider: `builtin` (the default advisor) or `openai` (any OpenAI-compatible server). */
  AI_PROVIDER: z.enum(['builtin', 'openai', '']).optional(),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OPENAI_MODEL: optionalString,
  /** How long one call to the AI model may take. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Stripe's API address (a local fake in tests). */
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  /**
   * Stripe price ids per plan and currency, `pro:THB=price_…,pro:USD=price_…` (ADR 0114); a plan and currency
   * without one is priced inline from the plan table.
   */
  STRIPE_PRICES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z]+:(USD|THB)=price_\w+$/, 'expected plan:USD|THB=price_…')))
    .transform((pairs) => Object.fromEntries(pairs.map((pair) => pair.split('=') as [string, string]))),
  /** The seller on receipts, and VAT at BILLING_VAT_RATE % when registered (ADR 0115). */
  BILLING_VAT_REGISTERED: booleanish,
  BILLING_VAT_RATE: z.coerce.number().min(0).max(30).default(7),
  BILLING_VAT_SELLER_NAME: optionalString,
  BILLING_VAT_SELLER_ADDRESS: optionalString,
  BILLING_VAT_SELLER_TAX_ID: optionalString,
  /** The Test page's actions; on by default except in production (ADR 0045). */
  DIAGNOSTICS_ENABLED: z.enum(['true', 'false', '1', '0', '']).optional(),
  /** Mount the sandbox's fault, stats and reset routes (development and tests only; never in production). */
  SANDBOX_CONTROL_ROUTES: booleanish,
  /** The LINE Messaging API's address (a local fake in tests; ADR 0075). */
  LINE_API_URL: z.url().default('https://api.line.me'),
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

/** The name of every variable the server reads (the deployment files are held to it). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  role: Env['ROLE'];
  /** The worker's probe port (HEALTH_PORT); the API and `all` roles answer the probes on `port`. */
  healthPort?: number;
  /** How long a graceful stop may take (SHUTDOWN_TIMEOUT_SECONDS, in ms). */
  shutdownTimeoutMs: number;
  logLevel: Env['LOG_LEVEL'];
  logFormat: Env['LOG_FORMAT'];
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  ruleRunConcurrency: number;
  /** Requests per minute one address may make before the flood limit answers 429; 0 turns it off. */
  rateLimitMax: number;
  /** Sign-ups one address may make an hour (counted in the database, before the password is hashed); 0: no limit. */
  registrationsPerHour: number;
  appSecret?: string;
  /** METRICS_TOKEN: the scraper's bearer for GET /api/metrics (ADR 0084); unset, only the administrator's session. */
  metricsToken?: string;
  trustProxy: boolean;
  webDistDir?: string;
  /** SMTP_SECURE (implicit TLS); host, port, user and password are in `settingsEnv` (Settings may hold them). */
  smtpSecure: boolean;
  mailFrom: string;
  /** Webhook hosts allowed although private (tests, intranets). */
  webhookAllowedPrivateHosts: string[];
  /** The MCP endpoint's limits (ADR 0152): tool calls per credential a minute (0: none), browser origins allowed. */
  mcp: { toolCallsPerMinute: number; allowedOrigins: string[] };
  /**
   * Values of the variables Settings can also hold. A value here is pinned: Settings shows it read-only as "from the
   * environment" (modules/settings, ADR 0044).
   */
  settingsEnv: SettingsEnv;
  stripeApiUrl: string;
  billing: BillingConfig;
  /** Where LINE pushes go (LINE_API_URL, without a trailing slash). */
  lineApiUrl: string;
  /** The Test page's actions (ADR 0045). */
  diagnosticsEnabled: boolean;
  logs: { retentionDays: number; streamHeartbeatMs: number };
  meta: {
    /** Without an app id the built-in sandbox stands in for Meta (the embedded default). */
    mode: 'sandbox' | 'live';
    appId?: string;
    appSecret?: string;
    version: string;
    /** When Meta ends that version (YYYY-MM-DD), or null while Meta has not said (META_API_VERSION_ENDS_AT). */
    versionEndsAt: string | null;
    graphUrl: string;
    dialogUrl: string;
    syncIntervalMinutes: number;
    /** The sandbox's `/__sandbox` control routes: only when asked for, and never in production. */
    sandboxControlRoutes: boolean;
    /** Where a worker calls the sandbox an API process serves (INTERNAL_URL, else the public address). */
    internalUrl: string;
  };
  /** How long one call to the AI model may take (AI_TIMEOUT_MS). */
  aiTimeoutMs: number;
}

/** What billing reads of the environment beside Stripe's keys (ADR 0114, 0115). */
export interface BillingConfig {
  /** Stripe price ids keyed `plan:CURRENCY`. */
  stripePrices: Record<string, string>;
  /** The seller named on receipts; VAT is shown only when registered. */
  seller: { name?: string; address?: string; taxId?: string; vatRegistered: boolean; vatRate: number };
}

export interface SettingsEnv {
  aiProvider?: 'builtin' | 'openai';
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  openaiModel?: string;
  facebookAppId?: string;
  facebookAppSecret?: string;
  stripeSecretKey?: string;
  stripePublishableKey?: string;
  stripeWebhookSecret?: string;
  smtpHost?: string;
  smtpPort?: string;
  smtpUser?: string;
  smtpPass?: string;
}

/**
 * "Production" for diagnostics is a deployment on its own Postgres (DATABASE_URL) run with NODE_ENV=production: the
 * embedded default also runs with NODE_ENV=production under `npm start`, and its Test page stays usable (ADR 0045).
 */
function diagnosticsEnabled(env: Env): boolean {
  const explicit = env.DIAGNOSTICS_ENABLED;
  if (explicit) return explicit === 'true' || explicit === '1';
  return !(env.NODE_ENV === 'production' && env.DATABASE_URL);
}

/** The database a process opens: Postgres when DATABASE_URL is set, else the embedded one in `DATA_DIR/pglite`. */
export function databaseTarget(config: Config): { url?: string; dataDir: string } {
  return { url: config.databaseUrl, dataDir: `${config.dataDir}/pglite` };
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
    healthPort: env.HEALTH_PORT,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    ruleRunConcurrency: env.RULE_RUN_CONCURRENCY,
    rateLimitMax: env.RATE_LIMIT_MAX,
    registrationsPerHour: env.REGISTRATION_LIMIT_PER_HOUR,
    appSecret: env.APP_SECRET,
    metricsToken: env.METRICS_TOKEN,
    trustProxy: env.TRUST_PROXY,
    webDistDir: env.WEB_DIST_DIR,
    smtpSecure: env.SMTP_SECURE,
    mailFrom: env.MAIL_FROM,
    webhookAllowedPrivateHosts: env.WEBHOOK_ALLOWED_PRIVATE_HOSTS,
    mcp: { toolCallsPerMinute: env.MCP_TOOL_CALLS_PER_MINUTE, allowedOrigins: env.MCP_ALLOWED_ORIGINS },
    settingsEnv: {
      aiProvider: env.AI_PROVIDER || undefined,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      openaiModel: env.OPENAI_MODEL,
      facebookAppId: env.META_APP_ID,
      facebookAppSecret: env.META_APP_SECRET,
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      smtpHost: env.SMTP_HOST,
      // The port has a default; only a port actually set in the environment pins the field.
      smtpPort: source.SMTP_PORT ? String(env.SMTP_PORT) : undefined,
      smtpUser: env.SMTP_USER,
      smtpPass: env.SMTP_PASS,
    },
    stripeApiUrl: env.STRIPE_API_URL.replace(/\/$/, ''),
    billing: {
      stripePrices: env.STRIPE_PRICES,
      seller: {
        name: env.BILLING_VAT_SELLER_NAME,
        address: env.BILLING_VAT_SELLER_ADDRESS,
        taxId: env.BILLING_VAT_SELLER_TAX_ID,
        vatRegistered: env.BILLING_VAT_REGISTERED,
        vatRate: env.BILLING_VAT_RATE,
      },
    },
    lineApiUrl: env.LINE_API_URL.replace(/\/$/, ''),
    diagnosticsEnabled: diagnosticsEnabled(env),
    logs: { retentionDays: env.LOG_RETENTION_DAYS, streamHeartbeatMs: env.LOG_STREAM_HEARTBEAT_MS },
    meta: {
      mode: env.META_APP_ID ? 'live' : 'sandbox',
      appId: env.META_APP_ID,
      appSecret: env.META_APP_SECRET,
      version: env.META_API_VERSION,
      versionEndsAt: env.META_API_VERSION_ENDS_AT ?? marketingApiEndOfLife(env.META_API_VERSION),
      graphUrl: env.META_GRAPH_URL,
      dialogUrl: env.META_DIALOG_URL,
      syncIntervalMinutes: env.META_SYNC_INTERVAL_MINUTES,
      sandboxControlRoutes: env.SANDBOX_CONTROL_ROUTES && env.NODE_ENV !== 'production',
      internalUrl: (env.INTERNAL_URL ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    },
    aiTimeoutMs: env.AI_TIMEOUT_MS,
  };
}
