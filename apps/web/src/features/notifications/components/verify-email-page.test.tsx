import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearStoredSession } from '../../../lib/session-storage.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const CONFIRM = 'POST /email-verification/confirm';

describe('The confirmation page of an e-mail address', () => {
  beforeEach(() => {
    clearStoredSession();
    setLanguageChoice(null);
  });

  it('confirms the link once when it opens, signed out, and points to sign-in', async () => {
    const posted: unknown[] = [];
    mockApi({
      [CONFIRM]: (body) => {
        posted.push(body);
        return ok({ message: 'Your e-mail address is confirmed. AdPilot can now send your notifications to it.' });
      },
    });
    renderApp('/verify-email?token=abc%2B123');
    expect(
      await screen.findByText('Your e-mail address is confirmed. AdPilot can now send your notifications to it.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(posted).toEqual([{ token: 'abc+123' }]);
  });

  it('works signed in too, and points to the dashboard', async () => {
    storeSession();
    mockApi({ [CONFIRM]: ok({ message: 'confirmed' }) });
    renderApp('/verify-email?token=abc');
    expect(await screen.findByText(/^Your e-mail address is confirmed\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('says an used or expired link is invalid, in Thai', async () => {
    setLanguageChoice('th');
    mockApi({ [CONFIRM]: fail(400, 'INVALID_STATE', 'This confirmation link is invalid or has expired.') });
    renderApp('/verify-email?token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent('ลิงก์ยืนยันนี้ไม่ถูกต้องหรือหมดอายุแล้ว');
  });

  it('says a link without a token is invalid without asking the server', async () => {
    const fetchMock = mockApi({});
    renderApp('/verify-email');
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link is invalid or has expired.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells a failure of the server apart from a bad link', async () => {
    mockApi({ [CONFIRM]: fail(503, 'SERVICE_UNAVAILABLE', 'Service unavailable') });
    renderApp('/verify-email?token=abc');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be confirmed right now');
  });
});
