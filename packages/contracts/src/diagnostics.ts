import { z } from 'zod';
import { AI_PROVIDERS } from './settings.ts';

/** The Test page's checks (spec §2 "Test page"), each run by its own button and all by Run All Tests. */
export const DIAGNOSTIC_TESTS = ['database', 'auth', 'rls', 'database-access', 'registration'] as const;
export type DiagnosticTest = (typeof DIAGNOSTIC_TESTS)[number];

export const DIAGNOSTIC_STATUSES = ['passed', 'warning', 'failed'] as const;
export type DiagnosticStatus = (typeof DIAGNOSTIC_STATUSES)[number];

/** What a check found, as a code the web words in English and Thai (with `params`). */
export const DIAGNOSTIC_CODES = [
  'database_connected',
  'database_failed',
  'auth_working',
  'auth_failed',
  'rls_configured',
  'rls_leak',
  'rls_readable_without_auth',
  'rls_failed',
  'database_access_completed',
  'database_access_no_plans_table',
  'database_access_failed',
  'registration_completed',
  'registration_failed',
] as const;
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export const diagnosticResultSchema = z.object({
  test: z.enum(DIAGNOSTIC_TESTS),
  status: z.enum(DIAGNOSTIC_STATUSES),
  code: z.enum(DIAGNOSTIC_CODES),
  /** Figures for the words: latency, counts, plan names, the error's own message. */
  params: z.object({
    latencyMs: z.number().optional(),
    users: z.number().optional(),
    plans: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
    error: z.string().optional(),
  }),
  durationMs: z.number(),
});
export type DiagnosticResult = z.infer<typeof diagnosticResultSchema>;

export const diagnosticTestParamSchema = z.strictObject({ test: z.enum(DIAGNOSTIC_TESTS) });

/** Configuration the instance lacks, as codes (the spec's environment check "reports configuration as missing"). */
export const MISSING_CONFIG_CODES = ['app_secret', 'openai_key', 'smtp', 'stripe', 'meta_app'] as const;
export type MissingConfigCode = (typeof MISSING_CONFIG_CODES)[number];

/** GET /api/diagnostics: whether the actions run here, and the environment block when they do. */
export const diagnosticsInfoSchema = z.object({
  enabled: z.boolean(),
  environment: z
    .object({
      mode: z.enum(['development', 'production', 'test']),
      database: z.enum(['pglite', 'postgres']),
      role: z.enum(['all', 'api', 'worker']),
      versions: z.object({ app: z.string(), node: z.string(), database: z.string() }),
      providers: z.object({
        ai: z.enum(AI_PROVIDERS),
        meta: z.enum(['sandbox', 'live']),
        billing: z.enum(['local', 'stripe']),
        mail: z.enum(['outbox', 'smtp']),
      }),
      missing: z.array(z.enum(MISSING_CONFIG_CODES)),
    })
    .optional(),
});
export type DiagnosticsInfo = z.infer<typeof diagnosticsInfoSchema>;
