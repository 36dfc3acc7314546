import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { page } from './consent-page.ts';

/** How long a "View in Facebook" link to the sandbox Ads Manager opens it, and how long the page stays open then. */
export const ADS_MANAGER_LINK_SECONDS = 24 * 60 * 60;

const COOKIE_PREFIX = 'sandbox_am_';

/** The person a change on the page is recorded as: whom the link was signed for, never a name typed on the page. */
export interface AdsManagerPerson {
  id: string;
  name: string;
}

/**
 * Who a link's holder is now, asked at every use: the person while they may still edit the account (still a member,
 * with an editing role), undefined once they may not. The host that signs links with a holder answers it.
 */
export type AdsManagerHolderCheck = (holder: string, act: string) => Promise<AdsManagerPerson | undefined>;

/** Whom a change is recorded as where the sandbox runs on its own and its links name nobody. */
export const SANDBOX_PERSON: AdsManagerPerson = { id: 'sandbox-user', name: 'Sandbox user' };

const HOLDER_MAX = 200;

/**
 * Who may open an account's sandbox Ads Manager: the person AdPilot handed a signed, time-limited link to (the
 * account card's "View in Facebook"), and then that browser, by a cookie the link sets for the account alone. The
 * signature is an HMAC with the sandbox's app secret, which only the instance holds; guessing an account id opens
 * nothing. A link names its holder (an opaque id the host gives); once the host answers `checkHoldersWith`, every use
 * of the page asks it again, so a holder who left the workspace or lost their editing role is refused at once, and a
 * change is recorded as that person's. Facebook's own page asks for a Facebook session; this is the sandbox's stand-in.
 */
export class AdsManagerAccess {
  private holders: AdsManagerHolderCheck | undefined;

  constructor(
    private readonly appSecret: string,
    private readonly nowMs: () => number,
  ) {}

  /** From now on every use of a link asks `check` who its holder is; a link naming nobody is refused. */
  checkHoldersWith(check: AdsManagerHolderCheck): void {
    this.holders = check;
  }

  /** The page's address for `act`, for `holder` when given, signed, valid for ADS_MANAGER_LINK_SECONDS from now. */
  link(base: string, act: string, holder?: string): string {
    const expires = Math.floor(this.nowMs() / 1000) + ADS_MANAGER_LINK_SECONDS;
    const url = new URL(base);
    url.searchParams.set('act', act);
    if (holder !== undefined) url.searchParams.set('holder', holder);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('sig', this.sign(act, expires, holder));
    return url.toString();
  }

  /** The grant for `act` when the link is well signed and not expired (not yet whether its holder may use it). */
  check(act: string, expires: string | undefined, sig: string | undefined, holder?: string): string | undefined {
    if (!act || !expires || !sig || !/^\d{1,12}$/.test(expires)) return undefined;
    if (holder !== undefined && (holder === '' || holder.length > HOLDER_MAX)) return undefined;
    const at = Number(expires);
    if (at * 1000 <= this.nowMs()) return undefined;
    const expected = Buffer.from(this.sign(act, at, holder));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const named = holder === undefined ? '' : `.${Buffer.from(holder).toString('base64url')}`;
    return `${expires}.${sig}${named}`;
  }

  /** The person a grant lets in to `act` now, asked of the host when it checks holders; undefined when refused. */
  async personOf(act: string, grant: string): Promise<AdsManagerPerson | undefined> {
    const [expires, sig, named, ...rest] = grant.split('.');
    if (rest.length > 0) return undefined;
    const holder = named === undefined ? undefined : Buffer.from(named, 'base64url').toString();
    if (this.check(act, expires, sig, holder) === undefined) return undefined;
    if (!this.holders) return SANDBOX_PERSON;
    if (holder === undefined) return undefined;
    return this.holders(holder, act);
  }

  /** The person this request's browser was let in to `act` as by a link earlier (its cookie), while still allowed. */
  async admit(request: FastifyRequest, act: string): Promise<AdsManagerPerson | undefined> {
    const grant = readCookie(request, cookieName(act));
    return grant ? this.personOf(act, grant) : undefined;
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

  private sign(act: string, expires: number, holder: string | undefined): string {
    const subject = holder === undefined ? '' : `\0${holder}`;
    return createHmac('sha256', this.appSecret).update(`ads-manager\0${act}\0${expires}${subject}`).digest('base64url');
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
