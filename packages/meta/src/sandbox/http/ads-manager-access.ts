import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { page } from './consent-page.ts';

/** How long a "View in Facebook" link to the sandbox Ads Manager opens it, and how long the page stays open then. */
export const ADS_MANAGER_LINK_SECONDS = 24 * 60 * 60;

const COOKIE_PREFIX = 'sandbox_am_';

/**
 * Who may open an account's sandbox Ads Manager: the person AdPilot handed a signed, time-limited link to (the
 * account card's "View in Facebook"), and then that browser, by a cookie the link sets for the account alone. The
 * signature is an HMAC with the sandbox's app secret, which only the instance holds; guessing an account id opens
 * nothing. Facebook's own page asks for a Facebook session; this is the sandbox's stand-in for one.
 */
export class AdsManagerAccess {
  constructor(
    private readonly appSecret: string,
    private readonly nowMs: () => number,
  ) {}

  /** The page's address for `act`, signed, valid for ADS_MANAGER_LINK_SECONDS from now. */
  link(base: string, act: string): string {
    const expires = Math.floor(this.nowMs() / 1000) + ADS_MANAGER_LINK_SECONDS;
    const url = new URL(base);
    url.searchParams.set('act', act);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('sig', this.sign(act, expires));
    return url.toString();
  }

  /** The grant `expires.sig` for `act` when it is well signed and not expired; undefined for anything else. */
  check(act: string, expires: string | undefined, sig: string | undefined): string | undefined {
    if (!act || !expires || !sig || !/^\d{1,12}$/.test(expires)) return undefined;
    const at = Number(expires);
    if (at * 1000 <= this.nowMs()) return undefined;
    const expected = Buffer.from(this.sign(act, at));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    return `${expires}.${sig}`;
  }

  /** Whether this request's browser was let in to `act` by a link earlier (its cookie). */
  allows(request: FastifyRequest, act: string): boolean {
    const grant = readCookie(request, cookieName(act));
    if (!grant) return false;
    const [expires, sig] = grant.split('.');
    return this.check(act, expires, sig) !== undefined;
  }

  /** Lets this browser in to `act` until the grant expires (Lax: a form posted from another site carries nothing). */
  remember(reply: FastifyReply, request: FastifyRequest, path: string, act: string, grant: string): void {
    const expires = Number(grant.split('.')[0]);
    const maxAge = Math.max(0, expires - Math.floor(this.nowMs() / 1000));
    const secure = request.protocol === 'https' ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${cookieName(act)}=${grant}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
    );
  }

  private sign(act: string, expires: number): string {
    return createHmac('sha256', this.appSecret).update(`ads-manager\0${act}\0${expires}`).digest('base64url');
  }
}

function cookieName(act: string): string {
  return `${COOKIE_PREFIX}${act.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The answer to a browser AdPilot did not send here: the same whether the account exists or not. */
export function refuse(reply: FastifyReply, cssPath: string): FastifyReply {
  return reply
    .code(403)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      page(
        cssPath,
        `<h1>Open this page from AdPilot</h1>
<p class="error">This sandbox Ads Manager page opens through the "View in Facebook" link on the ad account's card in
AdPilot. The link may have expired: open it again from there.</p>`,
      ),
    );
}

/** Follows a signed link as a browser would and returns the cookie it was given (for scripts and tests). */
export async function adsManagerCookie(link: string): Promise<string> {
  const response = await fetch(link, { redirect: 'manual' });
  const cookie = response.headers.get('set-cookie');
  if (response.status !== 303 || !cookie) throw new Error(`the Ads Manager link answered ${response.status}`);
  return cookie.split(';')[0] ?? '';
}
