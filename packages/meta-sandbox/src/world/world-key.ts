import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { defaultSeed, type AccountSeed, type PersonaSeed, type SandboxSeed } from './seed.ts';

/** The world every caller without a world hint shares: tests, benchmarks, direct use, tokens from before worlds. */
export const DEFAULT_WORLD = '';

/** What a world key may be: an AdPilot workspace id (a UUID) or any short id of the same alphabet. */
const WORLD_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export function isWorldKey(key: string): boolean {
  return WORLD_KEY.test(key);
}

function hintSignature(appSecret: string, key: string): string {
  return createHmac('sha256', appSecret).update(`sandbox-world\0${key}`).digest('base64url');
}

/**
 * The world hint AdPilot adds to the consent dialog's address (`sandbox_world=`): the key and an HMAC of it with
 * the app secret the app and the sandbox share, so a browser can neither pick another workspace's world nor make one up.
 */
export function signWorldHint(appSecret: string, key: string): string {
  if (!isWorldKey(key)) throw new Error('a sandbox world key is 1 to 64 letters, digits, - or _');
  return `${key}.${hintSignature(appSecret, key)}`;
}

/** The key of a well-signed hint; undefined for an altered, forged or malformed one. */
export function readWorldHint(appSecret: string, hint: string): string | undefined {
  const dot = hint.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const key = hint.slice(0, dot);
  if (!isWorldKey(key)) return undefined;
  const expected = Buffer.from(hintSignature(appSecret, key));
  const given = Buffer.from(hint.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return key;
}

/** Digits of a world's ad account ids: 14 from a hash of the key, leading digit never 0. */
const TAG_SPACE = 9 * 10 ** 13;

/**
 * A world's tag: 14 digits drawn from a SHA-256 of its key. Its ad accounts are the tag followed by a 2-digit index
 * (16 digits), while the default world's are 15 digits, so the two never meet and an account id names its world.
 * Two keys with one tag (about one chance in 10^14 per pair) are refused by the sandbox rather than mixed.
 */
export function worldTag(key: string): string {
  const digest = createHash('sha256').update(`sandbox-world-tag\0${key}`).digest();
  const value = digest.readUIntBE(0, 6) % TAG_SPACE;
  return String(10 ** 13 + value);
}

/** The tag of a world's ad account id, or undefined for an id of the default world (or no sandbox id at all). */
export function tagOfAccount(accountId: string): string | undefined {
  const id = accountId.startsWith('act_') ? accountId.slice(4) : accountId;
  return /^\d{16}$/.test(id) ? id.slice(0, 14) : undefined;
}

/** Whether ad account `accountId` (with or without act_) is one of world `key`'s. */
export function isAccountOfWorld(key: string, accountId: string): boolean {
  return isWorldKey(key) && tagOfAccount(accountId) === worldTag(key);
}

/** A short code of the key's tag, added to a world's names so two workspaces never see the same account name. */
export function worldCode(key: string): string {
  return Number(worldTag(key).slice(0, 12)).toString(36).slice(-4).toUpperCase();
}

const BUSINESS_NAMES = ['Riverside Trading', 'Golden Lotus Group', 'Harbor & Vine', 'Blue Orchid Ventures'];

/**
 * The seed of a workspace's own world: the default world's shape (the same markets, account states and
 * lifecycle examples, so every workspace meets every case the product handles), drawn from a seed of its own,
 * with account ids carrying the world's tag and names carrying its code. Deterministic: same key, same world.
 */
export function worldSeed(base: SandboxSeed, key: string): SandboxSeed {
  const shape = base.personas ?? defaultSeed().personas;
  const tag = worldTag(key);
  const code = worldCode(key);
  let index = 0;
  const personas: PersonaSeed[] = shape.map((persona, personaIndex) => ({
    name: persona.name,
    businessName: `${BUSINESS_NAMES[(Number(tag.slice(-3)) + personaIndex) % BUSINESS_NAMES.length]} ${code}`,
    accounts: persona.accounts.map((account): AccountSeed => ({
      ...account,
      id: `${tag}${String(index++).padStart(2, '0')}`,
      name: `${account.name} ${code}`,
    })),
  }));
  if (index > 100) throw new Error('a sandbox world holds at most 100 ad accounts');
  return { ...base, seed: `${String(base.seed ?? defaultSeed().seed)}/world/${key}`, personas };
}
