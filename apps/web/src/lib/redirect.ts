/** Router state carried to /login so the user comes back to the page that sent them there. */
export interface RedirectState {
  from?: string;
}

export const DEFAULT_SIGNED_IN_PATH = '/dashboard';

/** The page to open after signing in: the one recorded in router state, if it is a path of this app. */
export function redirectTarget(state: unknown): string {
  const from = (state as RedirectState | null)?.from;
  // "//host" would leave the app; only same-origin absolute paths are accepted.
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : DEFAULT_SIGNED_IN_PATH;
}

export function pathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
