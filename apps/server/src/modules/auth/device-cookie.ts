import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE_NAME = 'adpilot_device';
/** How long a browser stays known after its last successful sign-in (each one issues a fresh cookie). */
export const DEVICE_COOKIE_TTL_SECONDS = 180 * 24 * 60 * 60;
/** Sent only to the sign-in endpoints: no other request needs it. */
const COOKIE_PATH = '/api/auth';
const VERSION = 'v1';

/** A browser the user signed in with before: which user, and the id its own attempt budget is counted by. */
export interface KnownDevice {
  userId: string;
  deviceId: string;
}

/**
 * The known-device cookie (ADR 0087): `v1.<user id>.<device id>.<expiry>.<HMAC>`, signed with a key derived from the
 * application secret, so it cannot be forged or moved to another user. It proves only that this browser signed in to
 * that account before; the password is still checked.
 */
export class DeviceCookies {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date,
  ) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  /** A new cookie value for the user, with a new device id. */
  issue(userId: string): string {
    const expires = Math.floor(this.now().getTime() / 1000) + DEVICE_COOKIE_TTL_SECONDS;
    const payload = [VERSION, userId, randomUUID(), String(expires)].join('.');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The device a cookie value names, if its signature holds and it has not expired; undefined otherwise. */
  verify(value: string | undefined): KnownDevice | undefined {
    const parts = value?.split('.') ?? [];
    if (parts.length !== 5) return undefined;
    const [version, userId, deviceId, expires, signature] = parts as [string, string, string, string, string];
    if (version !== VERSION || !/^\d+$/.test(expires)) return undefined;
    const expected = this.mac([version, userId, deviceId, expires].join('.'));
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (Number(expires) * 1000 <= this.now().getTime()) return undefined;
    return { userId, deviceId };
  }
}

/** The value of one cookie of a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** The `Set-Cookie` line of a device cookie: script cannot read it, other sites never send it. */
export function deviceCookieHeader(value: string, secure: boolean): string {
  const attributes = [
    `${DEVICE_COOKIE_NAME}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${DEVICE_COOKIE_TTL_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}
