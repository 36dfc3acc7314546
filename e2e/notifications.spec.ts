import { expect, test } from '@playwright/test';
import { E2E_ADMIN, signInFreshUser } from './session.ts';

const CONFIRMED = 'Your e-mail address is confirmed. AdPilot can now send your notifications to it.';

test('turning e-mail on mails a confirmation link, which confirms the address once, signed out too', async ({
  browser,
  page,
  request,
}) => {
  const session = await signInFreshUser(page, request, 'verify');
  const email = session.user.email;
  await page.goto('/reports');
  await page.getByRole('button', { name: 'Notifications' }).click();
  let dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByRole('button', { name: 'Send test e-mail' })).toBeDisabled();
  await dialog.getByLabel(/E-mail me at once about errors/).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(`Verification sent to ${email}, check your inbox.`)).toBeVisible();

  // The embedded default has no mail server: the link waits in the administrator's outbox.
  const login = await request.post('/api/auth/login', { data: E2E_ADMIN });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const outbox = await request.get('/api/admin/outbox?limit=200', { headers: { authorization: `Bearer ${token}` } });
  const mails = ((await outbox.json()) as { data: { to: string; subject: string; text: string }[] }).data;
  const mine = mails.filter((mail) => mail.to === email);
  expect(mine.map((mail) => mail.subject)).toEqual(['Confirm your address for AdPilot notifications']);
  const path = /\/verify-email\?token=\S+/.exec(mine[0]!.text)![0];

  const signedOut = await browser.newContext();
  const visitor = await signedOut.newPage();
  await visitor.goto(new URL(path, page.url()).toString());
  await expect(visitor.getByText(CONFIRMED)).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('alert')).toContainText('This confirmation link is invalid or has expired.');
  await signedOut.close();

  await page.reload();
  await page.getByRole('button', { name: 'Notifications' }).click();
  dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByText('This address is confirmed.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send test e-mail' })).toBeEnabled();
});
