// `npm run build` unless the bundles on disk were built by this script from exactly the files there now: the e2e
// suite (`npm run test:e2e`) runs the built product, and `npm test` builds while lint and the type check run, so
// its e2e stage finds the bundles fresh. A fresh clone (CI) has no bundles and always builds.
//
// The stamp holds a hash of every file a build can read (the web app, the server, the workspace packages, the
// lockfile, the build scripts; over-inclusive on purpose: a test file edited only costs a rebuild), of the
// environment the build reads (NODE_ENV, VITE_*), and the size and time of both bundles as written. Anything else
// that wrote a bundle since (a plain `npm run build`, a vite build) changed its time, so no longer matches.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = join(root, 'apps/web/dist/index.html');
const serverBundle = join(root, 'apps/server/dist/main.js');
// Beside the bundles, not in them: the web bundle's folder is what the server serves.
const stampFile = join(root, 'node_modules/.cache/adpilot/build-inputs.json');
const INPUTS = ['apps/web', 'apps/server', 'packages', 'scripts/build-server.mjs', 'package.json', 'package-lock.json'];
const SKIPPED = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !SKIPPED.has(entry.name))
    .flatMap((entry) => files(join(path, entry.name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(join(root, input))).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  const environment = Object.entries(process.env)
    .filter(([name]) => name === 'NODE_ENV' || name.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b));
  return hash.update(JSON.stringify(environment)).digest('hex');
}

function bundles() {
  return [webIndex, serverBundle].map((file) => {
    if (!existsSync(file)) return null;
    const { size, mtimeMs } = statSync(file);
    return { file: relative(root, file), size, mtimeMs };
  });
}

const inputs = inputsHash();
const stamp = { inputs, bundles: bundles() };
let previous = null;
try {
  previous = JSON.parse(readFileSync(stampFile, 'utf8'));
} catch {
  // no stamp: never built here, or built by something else since
}
if (!stamp.bundles.includes(null) && JSON.stringify(previous) === JSON.stringify(stamp)) {
  console.log('build: the bundles are fresh for these sources, not rebuilt');
  process.exit(0);
}

const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// The hash is taken again: a file edited during the build must not be stamped as built.
if (inputsHash() === inputs) {
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${JSON.stringify({ inputs, bundles: bundles() })}\n`);
}
