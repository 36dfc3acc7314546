/** Router state carried to /login so the user comes back to the page that sent them there. */
export interface RedirectState {
  from?: string;
}

export const DEFAULT_SIGNED_IN_PATH = '/dashboard';

/** The query parameter a link to /login or /register names the page to come back to with (`?next=/path`). */
export const NEXT_PARAM = 'next';

// "//host" or "/\\host" would leave the app, and so would "/\t/host": URL parsing drops tabs and newlines, which
// makes it "//host". Only same-origin absolute paths without control characters or backslashes are accepted.
function isLocalPath(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith('/')) return false;
  if ([...value].some((char) => char < ' ' || char === '\u007f' || char === '\\')) return false;
  return !value.startsWith('//');
}

/**
 * The page to open after signing in: the one recorded in router state, else the one a link named in `?next=` (it
 * survives a reload and a new tab), if it is a path of this app.
 */
export function redirectTarget(state: unknown, search = ''): string {
  const from = (state as RedirectState | null)?.from;
  if (isLocalPath(from)) return from;
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  return isLocalPath(next) ? next : DEFAULT_SIGNED_IN_PATH;
}

/** The query parameter a link to /login or /register prefills the e-mail field with (an invitation's address). */
export const EMAIL_PARAM = 'email';

/** A link to /login or /register that comes back to `path` afterwards, its e-mail field filled with `email`. */
export function authLink(page: '/login' | '/register', path: string, email?: string): string {
  const query = new URLSearchParams({ [NEXT_PARAM]: path });
  if (email) query.set(EMAIL_PARAM, email);
  return `${page}?${query.toString()}`;
}

/** The address a link asked the sign-in or sign-up form to start with, or ''. */
export function prefilledEmail(search: string): string {
  return new URLSearchParams(search).get(EMAIL_PARAM)?.trim() ?? '';
}

export function pathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
