import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach (ADR 0039): loopback, private, link-local (cloud metadata at 169.254.169.254),
 * carrier-grade NAT, benchmarking, multicast, reserved and unspecified, in IPv4 and IPv6. Mapped and NAT64 IPv6
 * forms are checked by the IPv4 address they carry.
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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return BLOCKED.check(inner, 'ipv4');
    return BLOCKED.check(address, 'ipv6');
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

  constructor(allowedPrivateHosts: readonly string[] = []) {
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
    const answers = await lookup(host, { all: true, verbatim: true });
    // Every answer must pass: a name answering one public and one private address is refused whole.
    if (answers.length === 0) return null;
    if (!this.allows(host) && answers.some((answer) => isPrivateAddress(answer.address))) return null;
    const first = answers[0] as { address: string; family: number };
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}
