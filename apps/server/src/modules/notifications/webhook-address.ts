import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach (ADR 0039): loopback, private, link-local (cloud metadata at 169.254.169.254),
 * carrier-grade NAT, benchmarking, multicast, reserved and unspecified, in IPv4 and IPv6. IPv6 forms that carry an
 * IPv4 address are checked by that address too (ADR 0086), and the ones no webhook receiver needs are refused whole.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // IPv4-compatible (deprecated; `[::127.0.0.1]` is `[::7f00:1]`), with `::` and `::1` inside it.
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  // 6to4 (deprecated): the relay reaches the IPv4 address the prefix carries.
  ['2002::', 16],
  // Local-use NAT64: where its IPv4 address sits depends on the operator's prefix length.
  ['64:ff9b:1::', 48],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a zone `%eth0` dropped), or null when it is not one. */
function groupsOf(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(1).map(Number);
    if (bytes.some((byte) => byte > 255)) return null;
    const [a, b, c, d] = bytes as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<number>(Math.max(missing, 0)).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries: IPv4-compatible `::a.b.c.d`, mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d` (all in the last 32 bits) or 6to4 `2002:AABB:CCDD::` (bits 16 to 47); null for any other.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = groupsOf(address);
  if (!groups) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  const middleZero = g2 === 0 && g3 === 0 && g4 === 0;
  const compatibleOrMapped = g0 === 0 && g1 === 0 && middleZero && (g5 === 0 || g5 === 0xffff);
  const nat64 = g0 === 0x64 && g1 === 0xff9b && middleZero && g5 === 0;
  return compatibleOrMapped || nat64 ? ipv4Of(g6, g7) : null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    if (BLOCKED.check(address, 'ipv6')) return true;
    const inner = embeddedIpv4(address);
    return inner !== null && BLOCKED.check(inner, 'ipv4');
  }
  return true;
}

/** Host names that only mean something inside a network. */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    !name.includes('.')
  );
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Which webhook hosts may be private: none by default; the operator lists exceptions (`WEBHOOK_ALLOWED_PRIVATE_HOSTS`,
 * e.g. a receiver on the same machine in tests or on an intranet).
 */
export class WebhookAddressPolicy {
  private readonly allowed: Set<string>;

  /** `resolveName` answers every address of a name (the system resolver; tests hand in their own DNS answers). */
  constructor(
    allowedPrivateHosts: readonly string[] = [],
    private readonly resolveName: (host: string) => Promise<{ address: string; family: number }[]> = (host) =>
      lookup(host, { all: true, verbatim: true }),
  ) {
    this.allowed = new Set(allowedPrivateHosts.map((host) => host.toLowerCase()));
  }

  private allows(host: string): boolean {
    return this.allowed.has(host.toLowerCase());
  }

  /** At save time, without resolving names: a literal private address or a local name is refused. */
  acceptsUrl(raw: string): boolean {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    const host = bareHost(url);
    if (this.allows(host)) return true;
    if (isIP(host)) return !isPrivateAddress(host);
    return !isLocalName(host);
  }

  /**
   * At delivery: the address to connect to, resolved once and checked, so a name that later resolves elsewhere
   * (DNS rebinding) cannot move the request; null when every address is refused.
   */
  async resolve(raw: string): Promise<{ address: string; family: 4 | 6 } | null> {
    const url = new URL(raw);
    const host = bareHost(url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    const literal = isIP(host);
    if (literal)
      return this.allows(host) || !isPrivateAddress(host) ? { address: host, family: literal as 4 | 6 } : null;
    if (!this.allows(host) && isLocalName(host)) return null;
    const answers = await this.resolveName(host);
    // Every answer must pass: a name answering one public and one private address is refused whole.
    if (answers.length === 0) return null;
    if (!this.allows(host) && answers.some((answer) => isPrivateAddress(answer.address))) return null;
    const first = answers[0] as { address: string; family: number };
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
