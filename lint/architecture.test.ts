import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { KNOWN_SERVICE_VALUE_IMPORTS, MODULE_LAYERS } from './architecture.js';

// Every rule of eslint.config.js that guards the architecture, run for real on in-memory sources placed where the
// rule applies: each claim has a source that must fail and a neighbour that must pass.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT });

const value = (spec: string) => `import { thing } from '${spec}';\nexport const used = thing;\n`;
const typeOnly = (spec: string) => `import type { Thing } from '${spec}';\nexport type Used = Thing;\n`;

async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file), warnIgnored: true });
  return (result?.messages ?? []).map((m) => `${m.severity === 2 ? 'error' : 'warning'} ${m.ruleId}: ${m.message}`);
}

interface Case {
  rule: string;
  file: string;
  bad: string;
  good: string;
  /** What the violation's message says (so the right rule fired, not any rule). */
  says: string;
  /** Where the legitimate source lives, when not beside the violating one. */
  goodFile?: string;
}

const cases: Case[] = [
  // packages never import apps
  {
    rule: 'a package imports an app by name',
    file: 'packages/meta/src/x.ts',
    bad: value('@adpilot/server'),
    good: value('@adpilot/contracts'),
    says: 'Packages never import apps',
  },
  {
    rule: 'a package imports an app by relative path',
    file: 'packages/db/src/x.ts',
    bad: value('../../../apps/server/src/lib/crypto.ts'),
    good: value('./client.ts'),
    says: 'Packages never import apps',
  },
  // contracts depends on nothing of ours
  {
    rule: 'contracts imports another package',
    file: 'packages/contracts/src/x.ts',
    bad: value('@adpilot/db'),
    good: value('zod'),
    says: 'contracts depends on nothing of ours',
  },
  {
    rule: 'contracts reaches another package by path',
    file: 'packages/contracts/src/x.ts',
    bad: value('../../meta/src/index.ts'),
    good: value('./errors.ts'),
    says: 'contracts depends on nothing of ours',
  },
  // the Meta client never reaches the database
  {
    rule: 'the Meta client imports the database',
    file: 'packages/meta/src/client/x.ts',
    bad: value('@adpilot/db'),
    good: value('@adpilot/contracts'),
    says: 'The Meta client depends on contracts only',
  },
  {
    rule: "the Meta client takes the database's types by path",
    file: 'packages/meta/src/x.ts',
    bad: typeOnly('../../db/src/index.ts'),
    good: typeOnly('./client/errors.ts'),
    says: 'The Meta client depends on contracts only',
  },
  // the sandbox is its own package: the client never imports it, the server only where it mounts it (ADR 0195)
  {
    rule: 'the Meta client imports the sandbox',
    file: 'packages/meta/src/client/x.ts',
    bad: value('@adpilot/meta-sandbox'),
    good: value('@adpilot/meta-sandbox/testing'),
    goodFile: 'packages/meta/src/client/x.test.ts',
    says: 'The real Meta client never imports the sandbox',
  },
  {
    rule: "the Meta client takes the sandbox's types by path",
    file: 'packages/meta/src/x.ts',
    bad: typeOnly('../../meta-sandbox/src/index.ts'),
    good: typeOnly('./client/errors.ts'),
    says: 'The real Meta client never imports the sandbox',
  },
  {
    rule: 'the sandbox imports the database',
    file: 'packages/meta-sandbox/src/world/x.ts',
    bad: value('@adpilot/db'),
    good: value('@adpilot/meta'),
    says: 'of ours it imports contracts and the Meta client only',
  },
  {
    rule: 'a server module imports the sandbox',
    file: 'apps/server/src/modules/ad-accounts/ad-accounts.service.ts',
    bad: typeOnly('@adpilot/meta-sandbox'),
    good: value('@adpilot/meta-sandbox'),
    goodFile: 'apps/server/src/providers/meta/meta-provider.ts',
    says: 'Only providers/meta/ imports the Meta sandbox',
  },
  {
    rule: 'server code outside providers/meta reaches the sandbox by path',
    file: 'apps/server/src/app.ts',
    bad: value('../../../packages/meta-sandbox/src/index.ts'),
    good: typeOnly('@adpilot/meta-sandbox'),
    goodFile: 'apps/server/src/test/x.ts',
    says: 'Only providers/meta/ imports the Meta sandbox',
  },
  // a workspace declares each package of ours it imports (hoisting would hide the gap)
  {
    rule: 'a package imports a package of ours its package.json does not declare',
    file: 'packages/db/src/x.ts',
    bad: value('@adpilot/contracts'),
    good: value('drizzle-orm'),
    says: '@adpilot/contracts is not declared in packages/db/package.json',
  },
  {
    rule: 'an app imports the engine without declaring it, while the server declares it',
    file: 'apps/console/src/x.ts',
    bad: value('@adpilot/engine'),
    good: value('@adpilot/engine'),
    goodFile: 'apps/server/src/modules/rules/x.ts',
    says: '@adpilot/engine is not declared in apps/console/package.json',
  },
  // the engine is pure
  {
    rule: 'the engine imports the database',
    file: 'packages/engine/src/x.ts',
    bad: value('@adpilot/db'),
    good: value('@adpilot/contracts'),
    says: 'The engine is pure',
  },
  {
    rule: 'the engine imports the Meta client',
    file: 'packages/engine/src/x.ts',
    bad: value('@adpilot/meta'),
    good: value('./metrics.ts'),
    says: 'The engine is pure',
  },
  {
    rule: 'the engine imports a Node built-in',
    file: 'packages/engine/src/x.ts',
    bad: value('node:fs'),
    good: value('zod'),
    says: 'The engine is pure',
  },
  {
    rule: 'the engine imports a Node built-in without the node: prefix',
    file: 'packages/engine/src/x.ts',
    bad: value('crypto'),
    good: value('zod'),
    says: 'The engine is pure',
  },
  {
    rule: 'the engine imports an I/O library',
    file: 'packages/engine/src/x.ts',
    bad: value('pg-boss'),
    good: value('zod'),
    says: 'The engine is pure',
  },
  // web depends on contracts only
  {
    rule: 'the web imports the server by relative path',
    file: 'apps/web/src/features/rules/api/get-rules.ts',
    bad: value('../../../../../server/src/modules/auth/password.ts'),
    good: value('../../../lib/api-client.ts'),
    says: 'The web app depends on contracts only',
  },
  {
    rule: 'the web imports the server by name',
    file: 'apps/web/src/lib/x.ts',
    bad: value('@adpilot/server'),
    good: value('@adpilot/contracts'),
    says: 'The web app depends on contracts only',
  },
  {
    rule: 'the web imports a package other than contracts',
    file: 'apps/web/src/lib/x.ts',
    bad: value('@adpilot/db'),
    good: value('@adpilot/contracts'),
    says: 'The web app depends on contracts only',
  },
  {
    rule: 'the web imports a package by relative path',
    file: 'apps/web/src/lib/x.ts',
    bad: value('../../../../packages/meta/src/index.ts'),
    good: value('./api-client.ts'),
    says: 'The web app depends on contracts only',
  },
  {
    rule: 'the web imports a server library',
    file: 'apps/web/src/lib/x.ts',
    bad: value('drizzle-orm'),
    good: value('react'),
    says: 'The web app depends on contracts only',
  },
  // web features
  {
    rule: 'a feature imports another feature',
    file: 'apps/web/src/features/dashboard/components/x.tsx',
    bad: value('../../ad-accounts/api/get-ad-accounts.ts'),
    good: value('../api/get-stats.ts'),
    says: "Features don't import each other",
  },
  {
    rule: 'a feature test imports another feature',
    file: 'apps/web/src/features/dashboard/x.test.tsx',
    bad: value('../auth/components/login-page.tsx'),
    good: value('./components/dashboard-page.tsx'),
    says: "Features don't import each other",
  },
  {
    rule: 'a feature imports app/',
    file: 'apps/web/src/features/rules/components/x.tsx',
    bad: value('../../../app/router.tsx'),
    good: value('../../../components/ui/button.tsx'),
    says: 'Features never import app/',
  },
  {
    rule: 'shared code imports a feature',
    file: 'apps/web/src/components/ui/x.tsx',
    bad: value('../../features/auth/api/login.ts'),
    good: value('./button.tsx'),
    says: 'Shared code',
  },
  {
    rule: 'a shared api file imports a feature',
    file: 'apps/web/src/api/x.ts',
    bad: value('../features/dashboard/components/dashboard-page.tsx'),
    good: value('../lib/api-client.ts'),
    says: 'Shared code',
  },
  {
    rule: 'lib/ imports app/',
    file: 'apps/web/src/lib/x.ts',
    bad: value('../app/providers.tsx'),
    good: value('./i18n.ts'),
    says: 'Shared code',
  },
  // server never imports web
  {
    rule: 'the server imports the web app by name',
    file: 'apps/server/src/plugins/x.ts',
    bad: value('@adpilot/web'),
    good: value('@adpilot/contracts'),
    says: 'The server does not import the web app',
  },
  {
    rule: 'a server service imports the web app by relative path',
    file: 'apps/server/src/modules/auth/x.service.ts',
    bad: value('../../../../web/src/lib/i18n.ts'),
    good: value('./auth.repository.ts'),
    says: 'The server does not import the web app',
  },
  // server modules
  {
    rule: "a module imports another module's routes",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: value('../auth/auth.routes.ts'),
    good: value('./rules.repository.ts'),
    says: 'Routes are registered by app.ts only',
  },
  {
    rule: "a module constructs another module's repository",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: value('../activity/activity.repository.ts'),
    good: typeOnly('../activity/index.ts'),
    says: 'Another module is reached through its service',
  },
  {
    rule: "a module imports another module's internals",
    file: 'apps/server/src/modules/rules/rule-executor.ts',
    bad: value('../auth/password.ts'),
    good: typeOnly('../auth/index.ts'),
    says: 'Another module is reached through its service',
  },
  {
    rule: "a module imports another module's repository with an inline type specifier beside a value",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: `import { type Thing, thing } from '../activity/activity.repository.ts';\nexport const used: Thing = thing;\n`,
    good: `import { type Thing } from '../activity/index.ts';\nexport type Used = Thing;\n`,
    says: 'Another module is reached through its service',
  },
  // another module's service gives types only: its instance comes from context.ts, its helpers belong lower down
  {
    rule: "a module takes a helper from another module's service",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: value('../ad-accounts/ad-account-sync.service.ts'),
    good: typeOnly('../ad-accounts/index.ts'),
    says: "Another module's service is handed over by context.ts",
  },
  {
    rule: "a module re-exports a value of another module's service",
    file: 'apps/server/src/modules/reports/x.ts',
    bad: "export { thing } from '../rules/definitions/rules.service.ts';\n",
    good: "export type { Thing } from '../rules/index.ts';\n",
    says: "Another module's service is handed over by context.ts",
  },
  {
    rule: "a module runs another module's service for its side effects",
    file: 'apps/server/src/modules/reports/x.ts',
    bad: "import '../auth/auth.service.ts';\n",
    good: "import './reports.service.ts';\n",
    says: "Another module's service is handed over by context.ts",
  },
  {
    rule: 'a known value import lets through only the names it lists',
    file: 'apps/server/src/modules/entities/x.ts',
    bad: "import { MIRROR_REVISED_DAYS, REFRESH_DAYS } from '../ad-accounts/ad-mirror.service.ts';\nexport const days = [MIRROR_REVISED_DAYS, REFRESH_DAYS];\n",
    good: "import { MIRROR_REVISED_DAYS } from '../ad-accounts/index.ts';\nexport const days = MIRROR_REVISED_DAYS;\n",
    says: "Another module's service is handed over by context.ts",
  },
  // each module's public face is its index.ts (ADR 0171)
  {
    rule: "a module imports another module's file instead of its index",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: typeOnly('../auth/auth.service.ts'),
    good: typeOnly('../auth/index.ts'),
    says: 'Another module is imported through its public face',
  },
  {
    rule: "the composition root imports a module's factory file instead of its index",
    file: 'apps/server/src/context.ts',
    bad: value('./modules/auth/auth.module.ts'),
    good: value('./modules/auth/index.ts'),
    says: 'Another module is imported through its public face',
  },
  {
    rule: "a module's index re-exports another module",
    file: 'apps/server/src/modules/reports/index.ts',
    bad: "export type { RulesService } from '../rules/index.ts';\n",
    good: "export type { ReportsService } from './reports.service.ts';\n",
    says: 're-exports its own files only',
  },
  {
    rule: "a repository reached through another module's index is still its repository",
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: "import { ActivityRepository } from '../activity/index.ts';\nexport const made = new ActivityRepository();\n",
    good: "import type { ActivityRepository } from '../activity/index.ts';\nexport type Used = ActivityRepository;\n",
    says: 'Another module is reached through its service',
  },
  // the rules module's folders are layers, proposals → runs → definitions → ledger (ADR 0205)
  {
    rule: 'a lower layer of the rules imports a higher one',
    file: 'apps/server/src/modules/rules/runs/x.ts',
    bad: typeOnly('../proposals/proposals.service.ts'),
    good: typeOnly('../definitions/rules.repository.ts'),
    says: 'In the rules module imports go one way',
  },
  {
    rule: 'the definitions import the runs, while the runs may import the definitions',
    file: 'apps/server/src/modules/rules/definitions/x.ts',
    bad: value('../runs/rule-evaluator.ts'),
    good: value('../definitions/rule-definition.ts'),
    goodFile: 'apps/server/src/modules/rules/runs/x.ts',
    says: 'definitions/ never imports runs/',
  },
  {
    rule: 'the ledger imports a layer above it',
    file: 'apps/server/src/modules/rules/ledger/x.ts',
    bad: typeOnly('../definitions/rules.repository.ts'),
    good: typeOnly('./rule-ledger.repository.ts'),
    says: 'ledger/ never imports definitions/',
  },
  {
    rule: "a layer's test imports a layer above it",
    file: 'apps/server/src/modules/rules/definitions/x.test.ts',
    bad: value('../proposals/proposal-links.ts'),
    good: value('../ledger/rule-made.ts'),
    says: 'definitions/ never imports proposals/',
  },
  {
    rule: "a layer imports the rules module's root, while the root imports every layer",
    file: 'apps/server/src/modules/rules/proposals/x.ts',
    bad: value('../rules.jobs.ts'),
    good: "import { a } from './proposals/x.ts';\nimport { b } from './runs/x.ts';\nimport { c } from './definitions/x.ts';\nimport { d } from './ledger/x.ts';\nexport const all = [a, b, c, d];\n",
    goodFile: 'apps/server/src/modules/rules/rules-api.routes.ts',
    says: 'folders never import its root files',
  },
  // the server is assembled by main.ts; nothing inside imports its assembly
  {
    rule: 'a module imports context.ts, even for types',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: typeOnly('../../context.ts'),
    good: typeOnly('../../context.ts'),
    goodFile: 'apps/server/src/modules/rules/x.test.ts',
    says: 'Only main.ts, the commands and tests import context.ts or app.ts',
  },
  {
    rule: 'a module imports app.ts',
    file: 'apps/server/src/modules/health/health.service.ts',
    bad: value('../../app.ts'),
    good: value('./health.repository.ts'),
    says: 'Only main.ts, the commands and tests import context.ts or app.ts',
  },
  {
    rule: 'a plugin imports context.ts',
    file: 'apps/server/src/plugins/x.ts',
    bad: typeOnly('../context.ts'),
    good: typeOnly('../context.ts'),
    goodFile: 'apps/server/src/cli/x.ts',
    says: 'Only main.ts, the commands and tests import context.ts or app.ts',
  },
  // plugins are handed services by app.ts
  {
    rule: "a plugin imports a module's repository, even for types",
    file: 'apps/server/src/plugins/x.ts',
    bad: typeOnly('../modules/auth/auth.repository.ts'),
    good: typeOnly('../modules/auth/index.ts'),
    says: "Plugins never import a module's repository",
  },
  {
    rule: 'a plugin takes a value from a module',
    file: 'apps/server/src/plugins/x.ts',
    bad: value('../modules/auth/auth.service.ts'),
    good: typeOnly('../modules/auth/index.ts'),
    says: 'Plugins import only types from the modules',
  },
  {
    rule: "a plugin takes a module's repository through the module's index",
    file: 'apps/server/src/plugins/x.ts',
    bad: "import type { ActivityRepository } from '../modules/activity/index.ts';\nexport type Used = ActivityRepository;\n",
    good: "import type { ActivityService } from '../modules/activity/index.ts';\nexport type Used = ActivityService;\n",
    says: "Plugins never import a module's repository",
  },
  {
    rule: 'lib/ imports a module',
    file: 'apps/server/src/lib/x.ts',
    bad: value('../modules/auth/auth.service.ts'),
    good: value('./crypto.ts'),
    says: 'sit below the modules',
  },
  {
    rule: 'lib/ imports a module, while its test may assemble modules',
    file: 'apps/server/src/lib/x.ts',
    bad: value('../modules/auth/auth.repository.ts'),
    good: value('../modules/auth/auth.repository.ts'),
    goodFile: 'apps/server/src/lib/x.test.ts',
    says: 'sit below the modules',
  },
  // prom-client only in the metrics module
  {
    rule: 'the Meta package imports prom-client',
    file: 'packages/meta/src/client/x.ts',
    bad: value('prom-client'),
    good: value('prom-client'),
    goodFile: 'apps/server/src/modules/metrics/x.ts',
    says: 'Only modules/metrics imports prom-client',
  },
  {
    rule: 'another server module imports prom-client, even for types',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: typeOnly('prom-client'),
    good: typeOnly('prom-client'),
    goodFile: 'apps/server/src/modules/metrics/metrics.module.ts',
    says: 'Only modules/metrics imports prom-client',
  },
  // Drizzle only in repositories and packages/db
  {
    rule: 'a service imports Drizzle',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: value('drizzle-orm'),
    good: value('drizzle-orm'),
    goodFile: 'apps/server/src/modules/rules/rules.repository.ts',
    says: 'Only repositories (and packages/db) import Drizzle',
  },
  {
    rule: 'a route imports a Drizzle subpath, even for types',
    file: 'apps/server/src/modules/rules/rules.routes.ts',
    bad: typeOnly('drizzle-orm/pg-core'),
    good: typeOnly('drizzle-orm/pg-core'),
    goodFile: 'packages/db/src/schema/x.table.ts',
    says: 'Only repositories (and packages/db) import Drizzle',
  },
  {
    rule: 'a package other than db imports Drizzle',
    file: 'packages/meta/src/x.ts',
    bad: value('drizzle-orm'),
    good: value('zod'),
    says: 'Only repositories (and packages/db) import Drizzle',
  },
  {
    rule: 'a service takes tables or helpers from @adpilot/db',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: value('@adpilot/db'),
    good: typeOnly('@adpilot/db'),
    says: '@adpilot/db gives types only',
  },
  // the Drizzle handle
  {
    rule: 'a service queries through db',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: 'export const find = (db: { query: { rules: { findMany(): unknown } } }) => db.query.rules.findMany();\n',
    good: 'export const find = (repository: { findMany(): unknown }) => repository.findMany();\n',
    says: 'Only repositories query the database',
  },
  {
    rule: "a route queries through the context's handle",
    file: 'apps/server/src/modules/health/health.routes.ts',
    bad: 'export const ping = (database: { db: { execute(q: string): unknown } }) => database.db.execute("select 1");\n',
    good: 'export const ping = (database: { db: unknown }, repository: { ping(db: unknown): unknown }) =>\n  repository.ping(database.db);\n',
    says: 'Only repositories query the database',
  },
  {
    rule: "a service uses a transaction's raw handle",
    file: 'apps/server/src/modules/rules/rule-executor.ts',
    bad: 'export const write = (tx: { db: { insert(t: unknown): unknown } }) => tx.db.insert({});\n',
    good: 'export const write = (tx: unknown, repository: { insert(tx: unknown): unknown }) => repository.insert(tx);\n',
    says: 'Only repositories query the database',
  },
  {
    rule: 'a service queries through a handle named db beside its unit of work',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: 'export const list = (deps: { db: { select(): unknown } }) => deps.db.select();\n',
    good: 'export const list = (deps: { db: { tenant(id: string): unknown } }, userId: string) =>\n  deps.db.tenant(userId);\n',
    says: 'Only repositories query the database',
  },
  {
    rule: 'a service names the database handle type',
    file: 'apps/server/src/modules/rules/rules.service.ts',
    bad: "import type { Database } from '@adpilot/db';\nexport type Used = Database;\n",
    good: "import type { AdAccountRow } from '@adpilot/db';\nexport type Used = AdAccountRow;\n",
    says: 'Services never hold the database handle',
  },
  // every table has one owning module (lint/table-owners.js)
  {
    rule: "a module's repository queries another module's table",
    file: 'apps/server/src/modules/reports/x.repository.ts',
    bad: "import { automationRules } from '@adpilot/db';\nexport const table = automationRules;\n",
    good: "import { automationRules } from '@adpilot/db';\nexport const table = automationRules;\n",
    goodFile: 'apps/server/src/modules/rules/x.repository.ts',
    says: "Table 'automationRules' belongs to the rules module",
  },
  // the crossings ADR 0066 moved behind their owners' services fail again if they come back
  {
    rule: 'reports read the synced insights themselves',
    file: 'apps/server/src/modules/reports/reports.repository.ts',
    bad: "import { insightsDaily } from '@adpilot/db';\nexport const table = insightsDaily;\n",
    good: "import { insightsDaily } from '@adpilot/db';\nexport const table = insightsDaily;\n",
    goodFile: 'apps/server/src/modules/ad-accounts/ad-mirror.repository.ts',
    says: "Table 'insightsDaily' belongs to the ad-accounts module",
  },
  {
    rule: "the rules write an ad account's sync state themselves",
    file: 'apps/server/src/modules/rules/rule-inputs.repository.ts',
    bad: "import { adAccounts } from '@adpilot/db';\nexport const table = adAccounts;\n",
    good: "import type { AdAccountRow } from '@adpilot/db';\nexport type Row = AdAccountRow;\n",
    says: "Table 'adAccounts' belongs to the ad-accounts module",
  },
  {
    rule: "the maintenance clean-up deletes auth's tokens itself",
    file: 'apps/server/src/modules/maintenance/maintenance.repository.ts',
    bad: "import { refreshTokens } from '@adpilot/db';\nexport const table = refreshTokens;\n",
    good: "import { refreshTokens } from '@adpilot/db';\nexport const table = refreshTokens;\n",
    goodFile: 'apps/server/src/modules/auth/auth.repository.ts',
    says: "Table 'refreshTokens' belongs to the auth module",
  },
  {
    rule: "the notifier reads the users' addresses itself",
    file: 'apps/server/src/modules/notifications/notifications.repository.ts',
    bad: "import { emailVerifications, users } from '@adpilot/db';\nexport const tables = [emailVerifications, users];\n",
    good: "import { emailVerifications } from '@adpilot/db';\nexport const tables = [emailVerifications];\n",
    says: "Table 'users' belongs to the auth module",
  },
  // process.env only in config/env.ts
  {
    rule: 'server code reads process.env',
    file: 'apps/server/src/modules/auth/auth.service.ts',
    bad: 'export const port = process.env.PORT;\n',
    good: 'export const port = process.env.PORT;\n',
    goodFile: 'apps/server/src/config/env.ts',
    says: 'Read configuration through config/env.ts only',
  },
  {
    rule: 'server code destructures process.env',
    file: 'apps/server/src/plugins/x.ts',
    bad: 'const { env } = process;\nexport const port = env.PORT;\n',
    good: 'export const port = 3000;\n',
    says: 'Read configuration through config/env.ts only',
  },
  {
    rule: "server code imports env from 'node:process'",
    file: 'apps/server/src/jobs/x.ts',
    bad: "import { env } from 'node:process';\nexport const port = env.PORT;\n",
    good: "import { cwd } from 'node:process';\nexport const here = cwd();\n",
    says: 'Read configuration through config/env.ts only',
  },
  {
    rule: 'a package reads process.env, while its tests may read the test database address',
    file: 'packages/db/src/x.ts',
    bad: 'export const url = process.env.TEST_DATABASE_URL;\n',
    good: 'export const url = process.env.TEST_DATABASE_URL;\n',
    goodFile: 'packages/db/src/x.test.ts',
    says: 'Read configuration through config/env.ts only',
  },
  {
    rule: 'a package reads process.env',
    file: 'packages/meta/src/x.ts',
    bad: 'export const key = process.env.META_APP_SECRET;\n',
    good: 'export const key = (secret: string) => secret;\n',
    says: 'Read configuration through config/env.ts only',
  },
];

describe('architecture lint rules', () => {
  it.each(cases)('$rule: an error for the violation', async ({ file, bad, says }) => {
    const found = await errors(file, bad);
    expect(found.filter((m) => m.startsWith('error') && m.includes(says))).toHaveLength(1);
  });

  it.each(cases)('$rule: nothing for the legitimate neighbour', async ({ file, goodFile, good }) => {
    expect(await errors(goodFile ?? file, good)).toEqual([]);
  });

  it('lints the files named in the fixtures (none of them is ignored by the config)', async () => {
    for (const { file, goodFile } of cases)
      for (const f of [file, goodFile ?? file]) expect(await eslint.isPathIgnored(path.join(ROOT, f))).toBe(false);
  });
});

describe("the known value imports of another module's service", () => {
  const sources = readdirSync(path.join(ROOT, 'apps/server/src/modules'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => path.join(ROOT, 'apps/server/src/modules', name));

  it.each(Object.entries(KNOWN_SERVICE_VALUE_IMPORTS))(
    '%s: each name is still imported, or it leaves the list',
    (service, names) => {
      const used = new Set<string>();
      for (const file of sources) {
        // Imported from the service itself or, as the lint asks, from its module's index.ts (ADR 0171).
        const targets = [
          path.join(ROOT, service),
          path.join(ROOT, service.replace(/(modules\/[^/]+)\/.*$/, '$1/index.ts')),
        ];
        for (const match of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
          const from = match[2] ?? '';
          if (!targets.includes(path.resolve(path.dirname(file), from))) continue;
          for (const name of (match[1] ?? '').split(',').map((part) => part.trim()))
            if (name && !name.startsWith('type ')) used.add(name);
        }
      }
      expect(names.filter((name) => !used.has(name))).toEqual([]);
    },
  );
});

describe('the layers of a layered module', () => {
  it.each(Object.entries(MODULE_LAYERS))('%s: each layer is a folder of the module', (module, layers) => {
    const folders = readdirSync(path.join(ROOT, 'apps/server/src/modules', module), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect([...layers].sort()).toEqual(folders);
  });
});
