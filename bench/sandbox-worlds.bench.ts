// The sandbox's memory per workspace world (ADR 0089): the heap after building the default world alone, after
// building 20 more worlds of the default size (lazily, as 20 workspaces connecting would), and after each of those
// worlds answered a first sync's insights (30 days, level=ad, daily) for every account, which fills the delivery
// model's caches. SANDBOX_WORLDS changes the count. Heap figures are taken after a full collection.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { handleGraphCall } from '../packages/meta-sandbox/src/graph/dispatch.ts';
import { createSandbox } from '../packages/meta-sandbox/src/create-sandbox.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const WORLDS = Number(process.env.SANDBOX_WORLDS ?? 20);
if (!Number.isInteger(WORLDS) || WORLDS < 1) throw new Error('SANDBOX_WORLDS must be a positive whole number');

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const base = heapMb();
const sandbox = createSandbox({ appSecret: 'bench-secret' });
const withDefault = heapMb();

const keys = Array.from({ length: WORLDS }, (_, index) => `bench-workspace-${String(index).padStart(3, '0')}`);
const started = performance.now();
for (const key of keys) sandbox.worldRuntime(key);
const buildMs = performance.now() - started;
const built = heapMb();

const now = sandbox.now();
const until = new Date(now).toISOString().slice(0, 10);
const since = new Date(now - 29 * 86_400_000).toISOString().slice(0, 10);
let rows = 0;
let ads = 0;
for (const key of keys) {
  const world = sandbox.worldRuntime(key);
  for (const account of world.world.accounts.values()) {
    const token = world.issueToken(account.personaId);
    ads += world.world.accountAds(account).length;
    const params = {
      level: 'ad',
      time_increment: '1',
      time_range: JSON.stringify({ since, until }),
      limit: '5000',
      appsecret_proof: sandbox.tokens.appSecretProof(token),
    };
    const answer = handleGraphCall(sandbox, {
      method: 'GET',
      version: 'v27.0',
      segments: [`act_${account.id}`, 'insights'],
      params,
      query: params,
      token,
      baseUrl: 'http://bench.invalid',
      inBatch: false,
    });
    if (answer.status !== 200) throw new Error(`insights answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    rows += (answer.body as { data: unknown[] }).data.length;
  }
}
const used = heapMb();

const perBuilt = (built - withDefault) / WORLDS;
const perUsed = (used - withDefault) / WORLDS;
console.log(
  `sandbox-worlds: default world ${(withDefault - base).toFixed(1)} MB of heap; ${WORLDS} more worlds built in ` +
    `${buildMs.toFixed(0)} ms: +${(built - withDefault).toFixed(1)} MB (${perBuilt.toFixed(2)} MB a world); after a ` +
    `first sync's insights of each (${ads} ads, ${rows} rows, 30 days): +${(used - withDefault).toFixed(1)} MB ` +
    `(${perUsed.toFixed(2)} MB a world); heap ${used.toFixed(1)} MB`,
);
