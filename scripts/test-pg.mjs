// Runs again on real Postgres, when TEST_DATABASE_URL is set (CI sets it), the suites whose outcome can differ
// between the engines: row-level security and roles, migrations, locks and leases, LISTEN/NOTIFY across processes,
// pg-boss's delivery, atomic counters under concurrency, SQL features (aggregates, date arithmetic, cursors), plus
// a smoke of every module (a module with such a suite needs no other). Everything else ran once on PGlite already
// (ADR 0063, 0068). Each test file creates and drops its own database on that server, a copy of one template
// database the run migrates once (packages/db/src/testing.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

/** Suites that run on both engines, with what in them depends on the engine. */
const ON_POSTGRES = {
  'apps/server/src/modules/workspaces/invitation-mail-queue.test.ts': 'a queued invitation mail sent once by the job',
  'apps/server/src/modules/mcp/mcp-changes.test.ts': "an agent's parallel identical changes written once",
  'apps/server/src/modules/rules/runs/rules.boost.test.ts': "a boost's budget schedule made once by two parallel runs",
  'apps/server/src/modules/account/account-export.test.ts': 'a once-only export link taken by parallel downloads',
  'apps/server/src/modules/workspaces/cross-workspace.test.ts': 'RLS for a member of two workspaces',
  'apps/server/src/modules/workspaces/membership-revocation.test.ts': 'LISTEN/NOTIFY from a trigger ends a stream',
  'packages/db/src/backup/backup.test.ts': "the rows' dump through the system role, a restore in one transaction",
  'packages/db/src/database-setup.test.ts': 'migrations, roles, row-level security',
  'packages/db/src/transactions.test.ts': 'tenant and system units of work under RLS',
  'packages/db/src/workspaces-migration.test.ts': 'a data migration on rows made before it, RLS by membership',
  'apps/server/src/jobs/job-queue.test.ts': "pg-boss on Postgres's own pool",
  'apps/server/src/process-roles.test.ts': 'an API and a worker process on one database (skipped on PGlite)',
  'apps/server/src/topology.test.ts':
    'two API and two worker processes on one database: streams, ticks and sends once (skipped on PGlite)',
  'apps/server/src/modules/ad-accounts/ad-account-sync.jobs.test.ts': 'sync jobs through pg-boss',
  'apps/server/src/modules/ad-accounts/signals.test.ts':
    'pacing alerts claimed once a month, anomaly episodes kept unique by a partial index',
  'apps/server/src/modules/activity/activity-stream.test.ts': 'LISTEN/NOTIFY across processes',
  'apps/server/src/modules/activity/activity.routes.test.ts': 'the per-user sequence trigger, search SQL',
  'apps/server/src/modules/activity/activity-export.test.ts': 'cursor streaming of a large export',
  'apps/server/src/modules/admin/admin.routes.test.ts': 'module smoke (admin, outbox)',
  'apps/server/src/modules/ad-accounts/ad-accounts.unit-of-work.test.ts':
    'one transaction per unit of work (ad accounts smoke)',
  'apps/server/src/modules/auth/auth.routes.test.ts': 'refresh-token rotation and reuse under concurrency',
  'apps/server/src/modules/auth/login-limits.test.ts': 'atomic attempt counters under concurrency',
  'apps/server/src/modules/auth/login-lockout.test.ts':
    'a sign-in code taken once by concurrent sign-ins; attempt counters',
  'apps/server/src/modules/auth/password-reset.test.ts': 'single-use links under concurrency',
  'apps/server/src/modules/auth/registration-limit.test.ts': 'atomic sign-up counter',
  'apps/server/src/modules/demo/demo.test.ts': 'parallel demo visits on the atomic attempt counter',
  'apps/server/src/modules/auth/session-cache.test.ts': 'NOTIFY of session changes across processes',
  'apps/server/src/modules/diagnostics/diagnostics.routes.test.ts': 'the row-level security probe',
  'apps/server/src/modules/health/health.routes.test.ts': 'module smoke (health)',
  'apps/server/src/modules/metrics/metrics.routes.test.ts':
    "job outcomes through pg-boss's own pool, the system-path count of pending proposals (metrics smoke)",
  'apps/server/src/modules/maintenance/maintenance.service.test.ts': 'system-path SQL',
  'apps/server/src/modules/maintenance/sync-recovery.test.ts': 'stale sync recovery SQL',
  'apps/server/src/modules/notifications/notifications.test.ts': 'each entry sent once across processes',
  'apps/server/src/modules/notifications/email-verification.test.ts': 'single-use links under concurrency',
  'apps/server/src/modules/reports/reports.routes.test.ts': 'aggregates and date arithmetic',
  'apps/server/src/modules/reports/schedules/report-schedules.test.ts':
    'parallel creates counted under an advisory lock, rate-limit counters',
  'apps/server/src/modules/reports/schedules/report-schedules.jobs.test.ts':
    'a due period claimed once across processes (partial unique index), retries on the real queue',
  'apps/server/src/modules/rules/runs/rules.crash.test.ts': 'leases and a killed worker on real locks',
  'apps/server/src/modules/rules/runs/rules.execution.test.ts': 'the action ledger under concurrency',
  'apps/server/src/modules/rules/runs/rules.holds.test.ts': 'timed holds and run-time conflicts in the action ledger',
  'apps/server/src/modules/rules/runs/rule-tick.test.ts': 'slot claiming SQL',
  'apps/server/src/modules/rules/runs/rules.impact.test.ts':
    'the impact read: a JSON recordset joined on insights, dates',
  'apps/server/src/modules/rules/proposals/proposals.test.ts': 'parallel approvals of one proposal write once',
  'apps/server/src/modules/rules/definitions/rules.routes.test.ts':
    'parallel toggles and the active-rule limit (rules smoke)',
  'apps/server/src/modules/settings/settings.at-rest.test.ts': 'sealed values as stored',
  'apps/server/src/modules/settings/settings.store.test.ts': 'NOTIFY of settings across processes (settings smoke)',
  'apps/server/src/modules/workspaces/workspaces.routes.test.ts':
    'RLS by membership, member changes under the workspace lock (workspaces smoke)',
  'apps/server/src/modules/workspaces/invitations.test.ts':
    'parallel invitations against the seats under a row lock, parallel accepts of one link',
  'apps/server/src/modules/subscription/ad-account-limit.test.ts': 'parallel connections against the limit',
  'apps/server/src/modules/subscription/plan-assignment.test.ts':
    'a plan change under the row lock; activity across tenants',
  'apps/server/src/modules/subscription/plan-limits.test.ts': 'atomic limit checks under concurrency',
  'apps/server/src/modules/subscription/stripe-billing.test.ts': 'each webhook event applied once',
  'apps/server/src/modules/subscription/subscription.routes.test.ts': 'upgrades and downgrades racing rule edits',
  'apps/server/src/modules/ai/ai.quota.test.ts': 'the atomic AI quota take',
  'packages/db/src/plans-per-payer-migration.test.ts': 'a data migration over real rows',
  'apps/server/src/modules/subscription/plan-pool.test.ts': "the pool's row locks under parallel writes",
  'apps/server/src/modules/workspaces/handover.test.ts': 'row locks of parallel handovers into one plan',
  'apps/server/src/modules/account/account.routes.test.ts': 'an account deleted in one unit of work, sessions revoked',
  'apps/server/src/modules/outbound/outbound-mail.test.ts': 'the atomic daily mail budgets',
  'apps/server/src/modules/entities/entities.figures.test.ts': "the explorer's sums in SQL",
  'apps/server/src/modules/entities/manual-actions.test.ts':
    "changes by hand: the budget holders' advisory locks under parallel requests",
  'apps/server/src/modules/ad-accounts/backfill.test.ts': "two backfills at once: the history's conditional move",
};

/**
 * Suites whose outcome does not depend on the engine: pure code, HTTP shape, providers, or a module's own logic once
 * another suite of the module ran on Postgres (ADR 0068).
 */
const PGLITE_ONLY = [
  // The job registry against the docs and the wiring: no SQL of its own.
  'apps/server/src/jobs/job-docs.test.ts',
  'apps/server/src/lib/pinned-fetch.test.ts',
  'apps/server/src/plugins/method-not-allowed.test.ts',
  'apps/server/src/modules/ai/ai-address.test.ts',
  'apps/server/src/modules/subscription/baht-billing.test.ts',
  'apps/server/src/modules/reports/reports.no-data.test.ts',
  'apps/server/src/modules/ad-accounts/token-expiry.test.ts',
  'apps/server/src/modules/ad-accounts/system-user-token.test.ts',
  'apps/server/src/modules/rules/runs/rule-windows.test.ts',
  'apps/server/src/modules/rules/runs/rules.dayparting.test.ts',
  // Pure text.
  'apps/server/src/modules/notifications/decision-texts.test.ts',
  'apps/server/src/modules/reports/schedules/report-mail-text.test.ts',
  // Pure calendar arithmetic.
  'apps/server/src/modules/reports/schedules/report-periods.test.ts',
  // End to end through the notifier's jobs; parallel approvals on Postgres are proposals.test.ts's.
  'apps/server/src/modules/rules/proposals/proposal-links.test.ts',
  // A test client's reconnection (the soak's live streams): nothing in it depends on the engine.
  'apps/server/src/test/live-stream.test.ts',
  // Role checks at the route: the same on either engine.
  'apps/server/src/modules/workspaces/role-matrix.test.ts',
  // Counting what the Meta client and the rules runtime report; the metrics' SQL runs on Postgres in
  // metrics.routes.test.ts.
  'apps/server/src/modules/metrics/metrics.sandbox.test.ts',
  // Replays the migration files on a fresh embedded database made at the migration before (test/migration-fixture.ts).
  'packages/db/src/usage-month-migration.test.ts',
  // The embedded folder's lock and the checks before a restore reads a file; the round trip is backup.test.ts.
  'packages/db/src/backup/backup-embedded.test.ts',
  'packages/db/src/workspace-tenant-migration.test.ts',
  'apps/server/src/config/env.test.ts',
  'apps/server/src/config/deploy-files.test.ts', // reads the Dockerfile and compose.yaml
  // fastify's inject cookies and @fastify/static's download, under the packages overridden for Node 20 (ADR 0181).
  'apps/server/src/config/node20-overrides.test.ts',
  'apps/server/src/modules/ad-accounts/effective-status.test.ts',
  'apps/server/src/lib/redact.test.ts',
  'apps/server/src/lib/log-format.test.ts',
  'apps/server/src/lib/ports.test.ts',
  'apps/server/src/modules/ad-accounts/ad-accounts.roles.test.ts', // who may edit an account: no SQL of its own
  'apps/server/src/modules/ai/assistant/assistant.suggestions.test.ts',
  'apps/server/src/plugins/body-depth.test.ts',
  'apps/server/src/plugins/compression.test.ts',
  'apps/server/src/plugins/envelope.test.ts',
  'apps/server/src/plugins/errors.test.ts',
  'apps/server/src/plugins/fuzz.test.ts',
  'apps/server/src/plugins/openapi.test.ts',
  'apps/server/src/plugins/spa.test.ts',
  'apps/server/src/request-log.test.ts',
  'apps/server/src/providers/ai/advisor/advisor.test.ts',
  'apps/server/src/providers/ai/openai-provider.test.ts',
  'apps/server/src/providers/mail/mailer.test.ts',
  'apps/server/src/providers/meta/meta-provider.test.ts',
  'apps/server/src/modules/ad-accounts/ad-accounts.permissions.test.ts', // module on Postgres: unit-of-work, sync jobs
  'apps/server/src/modules/ad-accounts/ad-accounts.routes.test.ts',
  'apps/server/src/modules/ad-accounts/sandbox-worlds.test.ts', // the sandbox's worlds; no SQL of its own
  'apps/server/src/modules/ad-accounts/insights-rollup.test.ts',
  'apps/server/src/modules/ad-accounts/external-changes.test.ts',
  'apps/server/src/modules/ai/ai.routes.test.ts',
  'apps/server/src/modules/auth/access-token.test.ts',
  'apps/server/src/modules/notifications/notification-language.test.ts',
  'apps/server/src/modules/notifications/line.test.ts', // the scan's SQL and delivery once: notifications.test.ts
  'apps/server/src/modules/notifications/line-text.test.ts',
  'apps/server/src/modules/notifications/rule-notify.test.ts', // delivery once: notifications.test.ts
  'apps/server/src/modules/notifications/webhook-address.test.ts',
  'apps/server/src/modules/notifications/webhook-sender.test.ts',
  'apps/server/src/modules/reports/xlsx.test.ts', // the writer and its ZIP: pure code
  'apps/server/src/modules/reports/pdf/report-pdf.test.ts', // the PDF writer: pure code
  'apps/server/src/modules/reports/pdf/report-pdf.image.test.ts', // the PDF read back as an image: no database
  'apps/server/src/modules/rules/rules.jobs.test.ts',
  'apps/server/src/modules/rules/runs/rule-decision.test.ts',
  'apps/server/src/modules/rules/runs/rule-impact.test.ts',
  'apps/server/src/modules/rules/runs/rules.account-minimum.test.ts',
  'apps/server/src/modules/rules/runs/rules.external-changes.test.ts', // the ledger on Postgres: rules.execution
  'apps/server/src/modules/settings/settings.routes.test.ts', // module on Postgres: settings.store, settings.at-rest
  'apps/server/src/modules/subscription/billing-period.test.ts',
  'apps/server/src/modules/subscription/receipt-pdf.image.test.ts', // the receipt read back as an image: no database
  // Their modules' engine-dependent parts run on Postgres in the suites above, or they are pure.
  'packages/db/src/private-files.test.ts',
  'apps/server/src/modules/agents/agent-policy-decision.test.ts',
  'apps/server/src/modules/agents/agent-policy.test.ts',
  'apps/server/src/modules/agents/api-tokens.test.ts',
  'apps/server/src/modules/agents/token-matrix.test.ts',
  'apps/server/src/modules/entities/entities.routes.test.ts',
  'apps/server/src/modules/entities/manual-plan.test.ts',
  'apps/server/src/modules/mcp/mcp.test.ts',
  'apps/server/src/modules/mcp/protocol-fuzz.test.ts',
  'apps/server/src/modules/subscription/plan-table.test.ts',
  'apps/server/src/modules/agents/oauth/oauth.test.ts',
  'apps/server/src/modules/ai/assistant/analyst.unit.test.ts',
  'apps/server/src/modules/ai/assistant/assistant.model.test.ts',
  'apps/server/src/modules/ai/assistant/assistant.sandbox.test.ts',
  'apps/server/src/modules/rules/runs/rules.fatigue.test.ts',
  'apps/server/src/modules/rules/runs/rules.relative.test.ts',
  'apps/server/src/providers/ai/advisor/ad-copy.thai.test.ts',
  'apps/server/src/providers/ai/advisor/rule-drafting.corpus.test.ts',
];

// Every suite is placed on purpose: a new one must be added to one of the two lists.
const suites = ['packages/db/src', 'apps/server/src'].flatMap((root) =>
  readdirSync(root, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${root}/${name}`),
);
const placed = new Set([...Object.keys(ON_POSTGRES), ...PGLITE_ONLY]);
const unplaced = suites.filter((file) => !placed.has(file));
const gone = [...placed].filter((file) => !suites.includes(file));
if (unplaced.length > 0 || gone.length > 0) {
  for (const file of unplaced) console.error(`test:pg: ${file} is in neither list of scripts/test-pg.mjs`);
  for (const file of gone) console.error(`test:pg: ${file} is listed in scripts/test-pg.mjs but does not exist`);
  process.exit(1);
}
// `--check` (part of `npm run lint`): the placement alone, so a suite in neither list fails in seconds, not at the end.
if (process.argv.includes('--check')) process.exit(0);

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.warn('test:pg skipped: TEST_DATABASE_URL is not set (the same suites already ran on PGlite)');
  process.exit(0);
}
if (process.env.TEST_PG_RAN_IN_UNIT_TIER) {
  // `npm test` with TEST_DATABASE_URL set (CI): the unit tier ran every suite on that server already, the ones
  // listed here included; running them again would only repeat them (about 130 s in CI).
  console.log(
    `test:pg: the unit tier of this run ran on Postgres: the ${Object.keys(ON_POSTGRES).length} suites listed here ran there`,
  );
  process.exit(0);
}
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'node', '--project', 'node-alone', ...Object.keys(ON_POSTGRES)],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  },
);
process.exit(result.status ?? 1);
