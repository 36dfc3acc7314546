/**
 * "Remember me": the session itself always persists until logout (spec §9 keeps it in local storage),
 * so the box remembers the e-mail address instead and fills it in on the next visit to /login.
 */
const REMEMBERED_EMAIL_KEY = 'rememberedEmail';

export function readRememberedEmail(): string | null {
  return localStorage.getItem(REMEMBERED_EMAIL_KEY);
}

export function rememberEmail(email: string | null): void {
  if (email) localStorage.setItem(REMEMBERED_EMAIL_KEY, email);
  else localStorage.removeItem(REMEMBERED_EMAIL_KEY);
}
