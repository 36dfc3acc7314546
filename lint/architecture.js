// The dependency direction of docs/ARCHITECTURE.md as two lint rules (ADR 0021).
//
// Import bans are decided here from the linted file's place in the tree and the import's resolved target, not by
// `no-restricted-imports` blocks: flat-config blocks for the same rule replace each other, so a later block for
// "server files" silently dropped an earlier "no web" ban, and glob patterns on the import string let
// `../../server/src/…` through. Resolving relative imports against the file closes that hole.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWN_CROSSINGS, TABLE_OWNERS } from './table-owners.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APPS = new Set(['server', 'web']);
/** Libraries that do I/O or belong to the server: the engine and the web app stay clear of them. */
const SERVER_LIBRARIES =
  /^(drizzle-orm|drizzle-kit|pg|pg-boss|@electric-sql\/pglite|fastify|@fastify\/[^/]+|nodemailer)(\/|$)/;
const DRIZZLE = /^drizzle-orm(\/|$)/;
const PROM_CLIENT = /^prom-client(\/|$)/;
/**
 * Modules whose folders are layers (ADR 0205): module → its folders, highest first. A folder imports only the
 * folders after it in the list; the files at the module's root (its module file, jobs, index, route wiring) import
 * them all, and no folder imports the root.
 */
export const MODULE_LAYERS = {
  rules: ['proposals', 'runs', 'definitions', 'ledger'],
};
/** The one home of the metrics library (ADR 0084). */
const METRICS_MODULE = 'apps/server/src/modules/metrics/';

const isTest = (file) =>
  /\.test\.tsx?$/.test(file) || /^apps\/[^/]+\/src\/test\//.test(file) || /^packages\/[^/]+\/test\//.test(file);
const isRepository = (file) => file.endsWith('.repository.ts');
/**
 * Where the server is assembled, and the commands that work on its database as a whole (backup, restore): the only
 * places that may open the database and hand its handle around.
 */
const COMPOSITION_ROOT = new Set([
  'apps/server/src/main.ts',
  'apps/server/src/context.ts',
  'apps/server/src/cli/backup.ts',
  'apps/server/src/cli/restore.ts',
]);

/**
 * Values other modules still import from a module's service, as `service file: [exported names]`; the
 * import-direction rule refuses any other value import from another module's service. The list only shrinks: each
 * name is a constant or helper to move to lib/ or @adpilot/contracts, or to hand over with the service.
 */
export const KNOWN_SERVICE_VALUE_IMPORTS = {
  // The mirror's settling days, read by the rules' impact and the explorer's windows (issue 34).
  'apps/server/src/modules/ad-accounts/ad-mirror.service.ts': ['MIRROR_REVISED_DAYS'],
};

/**
 * The one place of the server that builds the Meta sandbox (while no Meta app is configured) and answers its
 * questions: the rest of the server reaches it through the MetaProvider these files make (ADR 0195).
 */
const SANDBOX_MOUNT = 'apps/server/src/providers/meta/';

/** Where the server is started and its whole can be imported: nothing else in it imports context.ts or app.ts. */
const SERVER_ASSEMBLY = new Set(['apps/server/src/context.ts', 'apps/server/src/app.ts']);
const assembles = (file) =>
  file === 'apps/server/src/main.ts' ||
  SERVER_ASSEMBLY.has(file) ||
  file.startsWith('apps/server/src/cli/') ||
  isTest(file);

const toPosix = (p) => p.split(path.sep).join('/');

/** The `@adpilot/*` packages a workspace declares in its package.json (dependencies of any kind), read once. */
const declaredCache = new Map();
function declaredOurs(workspaceDir) {
  if (!declaredCache.has(workspaceDir)) {
    let names = new Set();
    try {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, workspaceDir, 'package.json'), 'utf8'));
      const all = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
      names = new Set(
        Object.keys(all)
          .filter((name) => name.startsWith('@adpilot/'))
          .map((name) => name.slice('@adpilot/'.length)),
      );
    } catch {
      // No manifest (a fixture's made-up workspace): nothing is declared.
    }
    declaredCache.set(workspaceDir, names);
  }
  return declaredCache.get(workspaceDir);
}
const workspaceDirOf = (rel) => /^(apps|packages)\/[^/]+/.exec(rel)?.[0] ?? null;

/** The workspace (`server`, `web`, `contracts`, `db`, …) a repository-relative path lies in, or null. */
function workspaceOf(rel) {
  const match = /^(apps|packages)\/([^/]+)(\/|$)/.exec(rel);
  return match ? match[2] : null;
}

/** What an import specifier points at: a workspace (and the file when it is a relative path), or an outside package. */
function resolveTarget(spec, fileAbs) {
  if (spec.startsWith('.') || spec.startsWith('/')) {
    const rel = toPosix(path.relative(ROOT, path.resolve(path.dirname(fileAbs), spec)));
    return { rel, workspace: workspaceOf(rel), external: null };
  }
  const ours = /^@adpilot\/([^/]+)/.exec(spec);
  if (ours) return { rel: null, workspace: ours[1], external: null, byName: true };
  return { rel: null, workspace: null, external: spec };
}

const isApp = (workspace) => APPS.has(workspace);
const isModuleIndex = (rel) => /^apps\/server\/src\/modules\/[^/]+\/index\.ts$/.test(rel ?? '');

/** A module index's re-exports, read once: exported name → `{ rel, typeOnly }` of the file it comes from. */
const indexCache = new Map();
function indexExports(indexRel) {
  if (!indexCache.has(indexRel)) {
    const names = new Map();
    let text = '';
    try {
      text = readFileSync(path.join(ROOT, indexRel), 'utf8');
    } catch {
      // A fixture's made-up module: an index that exports nothing.
    }
    for (const match of text.matchAll(/^export (type )?\{([^}]*)\} from '([^']+)';/gm)) {
      const rel = toPosix(path.join(path.dirname(indexRel), match[3]));
      for (const name of match[2]
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean))
        names.set(name.replace(/^type /, ''), { rel, typeOnly: Boolean(match[1]) || name.startsWith('type ') });
    }
    indexCache.set(indexRel, names);
  }
  return indexCache.get(indexRel);
}

/**
 * An import of a module's index.ts, seen as the imports of the files it re-exports (so the rules on services,
 * repositories and routes hold through the index): `[target, typeOnly, valueNames]` per file.
 */
function throughIndex(target, specifiers, typeOnly) {
  const exported = indexExports(target.rel);
  const byFile = new Map();
  for (const specifier of specifiers) {
    const found = exported.get(specifier.name);
    const rel = found?.rel ?? target.rel;
    const entry = byFile.get(rel) ?? { types: true, values: [] };
    const isType = typeOnly || specifier.isType || Boolean(found?.typeOnly);
    if (!isType) {
      entry.types = false;
      entry.values.push(specifier.name);
    }
    byFile.set(rel, entry);
  }
  return [...byFile].map(([rel, entry]) => [{ ...target, rel, viaIndex: true }, entry.types, entry.values]);
}
const moduleOf = (rel) => /^apps\/server\/src\/modules\/([^/]+)\//.exec(rel ?? '')?.[1] ?? null;
/** The folder of a module a file lies in (`runs` for `modules/rules/runs/x.ts`), or null at the module's root. */
const moduleFolderOf = (rel) => /^apps\/server\/src\/modules\/[^/]+\/([^/]+)\//.exec(rel ?? '')?.[1] ?? null;

/** Why a file of a layered module may not import another file of the same module, or null when it may. */
function layerViolation(module, file, target) {
  const layers = MODULE_LAYERS[module];
  const from = moduleFolderOf(file);
  if (!layers || !layers.includes(from)) return null;
  const to = moduleFolderOf(target);
  if (to === from) return null;
  const order = layers.join(' → ');
  if (to === null)
    return `The ${module} module's folders never import its root files: the root wires the layers (${order}).`;
  if (layers.indexOf(to) < layers.indexOf(from))
    return `In the ${module} module imports go one way, ${order}: ${from}/ never imports ${to}/ (move what both need down).`;
  return null;
}
const featureOf = (rel) => /^apps\/web\/src\/features\/([^/]+)\//.exec(rel ?? '')?.[1] ?? null;

/**
 * Why `file` may not import `target`, or null when it may. `typeOnly` is true for `import type` (and imports whose
 * every specifier is a type): types cross a boundary without creating or reaching anything at run time.
 */
function violation(file, target, typeOnly, valueNames = ['*']) {
  const from = workspaceOf(file);
  const to = target.workspace;
  const external = target.external;
  const ownWorkspace = to === from;

  if (file.startsWith('packages/') && isApp(to)) return 'Packages never import apps.';
  if (from === 'contracts' && to && !ownWorkspace) return 'contracts depends on nothing of ours.';
  if (from === 'meta' && to === 'meta-sandbox' && !isTest(file))
    return "The real Meta client never imports the sandbox: the server picks one or the other, and only the client's tests run against the sandbox.";
  if (from === 'meta' && to && !ownWorkspace && to !== 'contracts' && !(to === 'meta-sandbox' && isTest(file)))
    return 'The Meta client depends on contracts only of ours: it never reaches the database (the server stores what it answers).';
  if (from === 'meta-sandbox' && to && !ownWorkspace && to !== 'contracts' && to !== 'meta')
    return 'The Meta sandbox stands in for Meta: of ours it imports contracts and the Meta client only.';
  if (from === 'engine') {
    if (to && !ownWorkspace && to !== 'contracts') return 'The engine is pure: it imports contracts only.';
    if (external && (isBuiltin(external) || SERVER_LIBRARIES.test(external)))
      return 'The engine is pure: no Node built-ins and no I/O libraries (time and data are parameters).';
  }

  if (from === 'web') {
    if (to && !ownWorkspace && to !== 'contracts') return 'The web app depends on contracts only.';
    if (external && SERVER_LIBRARIES.test(external))
      return 'The web app depends on contracts only (no server libraries).';
    const feature = featureOf(file);
    const targetFeature = featureOf(target.rel);
    if (feature && targetFeature && targetFeature !== feature)
      return "Features don't import each other: move what both need to components/, lib/ or contracts.";
    if (feature && target.rel?.startsWith('apps/web/src/app/'))
      return 'Features never import app/: the app composes features, not the other way round.';
    if (
      /^apps\/web\/src\/(api|lib|components|locales)\//.test(file) &&
      !isTest(file) &&
      /^apps\/web\/src\/(features|app)\//.test(target.rel ?? '')
    )
      return 'Shared code (api/, lib/, components/) never imports features or app/.';
  }

  if (from === 'server') {
    if (to === 'web') return 'The server does not import the web app.';
    if (to === 'meta-sandbox' && !isTest(file) && !file.startsWith(SANDBOX_MOUNT))
      return 'Only providers/meta/ imports the Meta sandbox (it mounts it while no Meta app is configured): elsewhere the server reaches it through the MetaProvider, never by name.';
    const module = moduleOf(file);
    const targetModule = moduleOf(target.rel);
    if (module && targetModule === module) {
      const reason = layerViolation(module, file, target.rel);
      if (reason) return reason;
    }
    if (SERVER_ASSEMBLY.has(target.rel) && !assembles(file))
      return 'Only main.ts, the commands and tests import context.ts or app.ts: code inside is given what it needs as parameters.';
    if (isModuleIndex(file) && targetModule !== module)
      return "A module's index.ts re-exports its own files only: it is the module's public face, not a hub.";
    if (module && targetModule && targetModule !== module && !isTest(file)) {
      if (target.rel.endsWith('.routes.ts'))
        return "Routes are registered by app.ts only; modules never import another module's routes.";
      if (!target.rel.endsWith('.service.ts') && !typeOnly)
        return 'Another module is reached through its service, or through a type whose instance context.ts hands over; never construct or call into its repository or internals.';
      const known = KNOWN_SERVICE_VALUE_IMPORTS[target.rel] ?? [];
      if (!typeOnly && !valueNames.every((name) => known.includes(name)))
        return "Another module's service is handed over by context.ts: import only its types. A helper or constant both modules need belongs in lib/ or @adpilot/contracts.";
    }
    if (file.startsWith('apps/server/src/plugins/') && targetModule && !isTest(file)) {
      if (isRepository(target.rel))
        return "Plugins never import a module's repository, not even its types: app.ts hands a plugin the services it needs.";
      if (!typeOnly)
        return "Plugins import only types from the modules: app.ts hands a plugin the module's services as parameters.";
    }
    if (/^apps\/server\/src\/(lib|providers|config)\//.test(file) && targetModule && !isTest(file))
      return 'lib/, providers/ and config/ sit below the modules and never import them.';
    if (targetModule && targetModule !== module && !isTest(file) && !target.viaIndex && !isModuleIndex(target.rel))
      return `Another module is imported through its public face, apps/server/src/modules/${targetModule}/index.ts: export the name there (ADR 0171).`;
  }

  if (external && PROM_CLIENT.test(external) && !file.startsWith(METRICS_MODULE))
    return 'Only modules/metrics imports prom-client: packages and other modules report through an observer.';
  if (
    external &&
    DRIZZLE.test(external) &&
    from !== 'db' &&
    (from === 'server' ? !isRepository(file) && !isTest(file) : true)
  )
    return 'Only repositories (and packages/db) import Drizzle.';
  if (
    from === 'server' &&
    to === 'db' &&
    !typeOnly &&
    !isRepository(file) &&
    !isTest(file) &&
    !COMPOSITION_ROOT.has(file)
  )
    return 'Outside repositories, @adpilot/db gives types only: services reach the database through repositories.';
  // Last, so that a ban above names the real problem first: an import the direction allows must still be declared.
  if (target.byName && to && !ownWorkspace && !declaredOurs(workspaceDirOf(file)).has(to))
    return `@adpilot/${to} is not declared in ${workspaceDirOf(file)}/package.json: declare every package of ours a workspace imports (npm hoisting hides the gap until the package is installed alone).`;
  return null;
}

/** The names a static import or re-export takes as values (`*` for a namespace, a default or a dynamic import). */
function valueNamesOf(node) {
  if (node.type !== 'ImportDeclaration' && node.type !== 'ExportNamedDeclaration') return ['*'];
  // A bare `import './x.ts'` runs the file: it counts as a value import of all of it.
  if (!node.specifiers?.length) return ['*'];
  return node.specifiers
    .filter((s) => s.importKind !== 'type' && s.exportKind !== 'type')
    .map((s) => (s.type === 'ImportSpecifier' || s.type === 'ExportSpecifier' ? (s.imported ?? s.local).name : '*'));
}

const isTypeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

const relativeFile = (context) => toPosix(path.relative(ROOT, context.filename));

const importDirection = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the dependency direction of docs/ARCHITECTURE.md.' },
    schema: [],
  },
  create(context) {
    const file = relativeFile(context);
    const check = (node, source, typeOnly) => {
      if (typeof source?.value !== 'string') return;
      const target = resolveTarget(source.value, context.filename);
      const specifiers = (node.specifiers ?? [])
        .filter((s) => s.type === 'ImportSpecifier' || s.type === 'ExportSpecifier')
        .map((s) => ({
          name: (s.imported ?? s.local).name,
          isType: s.importKind === 'type' || s.exportKind === 'type',
        }));
      const seen =
        isModuleIndex(target.rel) && moduleOf(target.rel) !== moduleOf(file) && specifiers.length > 0
          ? throughIndex(target, specifiers, typeOnly)
          : [[target, typeOnly, valueNamesOf(node)]];
      for (const [each, eachTypeOnly, values] of seen) {
        const reason = violation(file, each, eachTypeOnly, values);
        if (reason) return context.report({ node: source, message: `'${source.value}': ${reason}` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source, false),
    };
  },
};

/**
 * Drizzle's query entry points. The rule looks for a query started on something named `db` (`tx.db.select(…)`), not
 * for the name alone: the unit of work is `transactions` (ADR 0065), but other names hold a `db` too.
 */
const QUERY_METHODS = new Set([
  'query',
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'transaction',
  'with',
  '$with',
  '$count',
  'refreshMaterializedView',
  'batch',
]);

/** The names a service could hold the Drizzle handle under: `db`, `x.db`. */
const isHandle = (node) =>
  (node.type === 'Identifier' && node.name === 'db') ||
  (node.type === 'MemberExpression' &&
    !node.computed &&
    node.property.type === 'Identifier' &&
    node.property.name === 'db');

const noDrizzleHandle = {
  meta: {
    type: 'problem',
    docs: { description: 'Outside repositories, nothing queries through the Drizzle handle.' },
    schema: [],
  },
  create(context) {
    const file = relativeFile(context);
    if (!file.startsWith('apps/server/src/') || isRepository(file) || isTest(file) || COMPOSITION_ROOT.has(file))
      return {};
    return {
      // Handing `database.db` to a repository is wiring; reading a member of it (`db.query…`, `tx.db.insert`) is a query.
      MemberExpression(node) {
        const method = !node.computed && node.property.type === 'Identifier' ? node.property.name : null;
        if (isHandle(node.object) && QUERY_METHODS.has(method))
          context.report({
            node,
            message: 'Only repositories query the database: move this into a repository method.',
          });
      },
      // Services get units of work and repositories, never the handle itself, not even as a type.
      ImportDeclaration(node) {
        if (!file.endsWith('.service.ts') || node.source.value !== '@adpilot/db') return;
        for (const specifier of node.specifiers) {
          const name = specifier.imported?.name;
          if (name === 'Database' || name === 'DatabaseHandle')
            context.report({ node: specifier, message: `Services never hold the database handle ('${name}').` });
        }
      },
    };
  },
};

/** Reading configuration: `process.env` through config/env.ts only (no-restricted-properties covers `process.env`). */
const noEnvImport = {
  meta: { type: 'problem', docs: { description: "No `env` import from 'node:process'." }, schema: [] },
  create(context) {
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'process' && node.source.value !== 'node:process') return;
        for (const specifier of node.specifiers)
          if (specifier.type === 'ImportSpecifier' && specifier.imported.name === 'env')
            context.report({ node: specifier, message: 'Read configuration through config/env.ts only.' });
      },
    };
  },
};

/** Every table has one owning module (lint/table-owners.js): no other module's code takes it from @adpilot/db. */
const tableOwnership = {
  meta: {
    type: 'problem',
    docs: { description: "A module's code touches only the tables its module owns (lint/table-owners.js)." },
    schema: [],
  },
  create(context) {
    const file = relativeFile(context);
    const module = moduleOf(file);
    if (!module || isTest(file)) return {};
    const allowed = new Set(KNOWN_CROSSINGS[file] ?? []);
    return {
      ImportDeclaration(node) {
        if (node.source.value !== '@adpilot/db' || node.importKind === 'type') return;
        for (const specifier of node.specifiers) {
          if (specifier.type !== 'ImportSpecifier' || specifier.importKind === 'type') continue;
          const table = specifier.imported.name;
          const owner = TABLE_OWNERS[table];
          if (!owner || owner === module || allowed.has(table)) continue;
          context.report({
            node: specifier,
            message: `Table '${table}' belongs to the ${owner} module: ask its service instead of querying it here.`,
          });
        }
      },
    };
  },
};

export const architecture = {
  meta: { name: 'adpilot-architecture' },
  rules: {
    'import-direction': importDirection,
    'no-drizzle-handle': noDrizzleHandle,
    'no-env-import': noEnvImport,
    'table-ownership': tableOwnership,
  },
};
