import type { Session } from '@adpilot/contracts';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * A fresh user per test, registered through the API and signed in by storing the session the way the app does
 * (spec §3: token, refreshToken, user), so a test starts on its own data without walking the sign-up form.
 */
export async function signInFreshUser(page: Page, request: APIRequestContext, prefix: string): Promise<Session> {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await request.post('/api/auth/register', {
    data: { name: `${prefix} tester`, email, password: 'Sandbox-Pass1' },
  });
  expect(response.ok()).toBeTruthy();
  const { data } = (await response.json()) as { data: Session };
  await storeSession(page, data);
  return data;
}

/** Opens the app and stores a session where the app keeps it (spec §3: token, refreshToken, user). */
export async function storeSession(page: Page, data: Session): Promise<void> {
  await page.goto('/login');
  await page.evaluate((session) => {
    // Runs in the browser; the e2e tsconfig has no DOM types, hence the narrow view of localStorage.
    const storage = (
      globalThis as unknown as {
        localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
      }
    ).localStorage;
    // The suites were written for the per-page mix (Rules and Subscription Thai): they keep it as the explicit
    // choice it now is, unless a test chose a language already (ADR 0130; shell-language.spec.ts covers the rest).
    if (storage.getItem('language') === null) storage.setItem('language', 'auto');
    storage.setItem('token', session.token);
    storage.setItem('refreshToken', session.refreshToken);
    storage.setItem('user', JSON.stringify(session.user));
  }, data);
}

/** Registered by scripts/e2e-server.mjs before any test runs, so it is the instance admin. */
export const E2E_ADMIN = { email: 'admin@e2e.adpilot.test', password: 'E2e-Admin-Pass1' };

/** Signs the instance admin in the way the app stores a session; answers its bearer header for API calls. */
export async function signInAdmin(page: Page, request: APIRequestContext): Promise<{ authorization: string }> {
  const response = await request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(response.ok()).toBeTruthy();
  const { data } = (await response.json()) as { data: Session };
  await storeSession(page, data);
  return { authorization: `Bearer ${data.token}` };
}

/** From the Ad Accounts page through Connect Account to the sandbox's consent screen. */
export async function openSandboxConsent(page: Page): Promise<void> {
  await page.goto('/ad-accounts');
  await page.getByRole('button', { name: 'Connect Account' }).click();
  await page
    .getByRole('dialog', { name: 'Connect Facebook Ad Account' })
    .getByRole('button', { name: 'Continue to Facebook' })
    .click();
  await expect(page).toHaveURL(/\/sandbox\/meta\/[^/]+\/dialog\/oauth/);
}

const CONNECTED = /^Successfully connected (\d+) ad accounts?!$/;

/**
 * Connects the sandbox's ad accounts through the Ad Accounts page and waits for their first sync to finish;
 * `atConsent` runs on the sandbox's consent screen before Allow is pressed.
 */
export async function connectSandbox(page: Page, atConsent?: (page: Page) => Promise<void>): Promise<void> {
  await openSandboxConsent(page);
  await atConsent?.(page);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByText(CONNECTED)).toBeVisible();
  // The first sync fills the mirror that rules and the AI studio read; wait until every card can sync again.
  for (const button of await page.getByRole('button', { name: 'Sync now' }).all()) {
    await expect(button).toBeEnabled({ timeout: 30_000 });
  }
}
