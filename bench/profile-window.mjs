// Sums a .cpuprofile's self time by where the code lives (a package, the sandbox, the server, Node), optionally
// within a stretch of V8's clock in µs: `node bench/profile-window.mjs <file> [fromµs toµs]`.
import { readFileSync } from 'node:fs';

const [file, from, to] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-window.mjs <file.cpuprofile> [fromµs toµs]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const start = from ? Number(from) : -Infinity;
const end = to ? Number(to) : Infinity;

function placeOf(node) {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : 'node (native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const own = url.match(/\/(packages\/[^/]+|apps\/[^/]+)\//);
  if (own) return url.includes('/sandbox/') ? `${own[1]} (sandbox)` : own[1];
  if (url.startsWith('node:')) return 'node';
  return url;
}

const places = new Map(profile.nodes.map((node) => [node.id, placeOf(node)]));
const functions = new Map(
  profile.nodes.map((node) => [node.id, `${node.callFrame.functionName || '(anonymous)'} ${placeOf(node)}`]),
);
const byPlace = new Map();
const byFunction = new Map();
let at = profile.startTime;
let total = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  at += delta;
  if (at < start || at > end) return;
  total += delta;
  byPlace.set(places.get(id), (byPlace.get(places.get(id)) ?? 0) + delta);
  byFunction.set(functions.get(id), (byFunction.get(functions.get(id)) ?? 0) + delta);
});
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1e6).toFixed(2)} s  ${name}`)
    .join('\n');
console.log(
  `${(total / 1e6).toFixed(1)} s sampled\nby place:\n${top(byPlace, 20)}\nby function:\n${top(byFunction, 30)}`,
);
