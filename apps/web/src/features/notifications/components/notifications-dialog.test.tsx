import type { NotificationSettings } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const PAGE = {
  'GET /reports': ok({ from: '', to: '', level: 'account', series: [] }),
  'GET /ad-accounts': ok([]),
};

const SETTINGS: NotificationSettings = {
  email: 'advertiser@example.com',
  mailDelivery: 'outbox',
  emailVerified: true,
  verificationSentAt: null,
  emailErrors: false,
  emailDigest: false,
  digestHour: 8,
  language: 'en',
  timeZone: 'UTC',
  webhook: null,
  line: { target: null, tokenHint: null, enabled: false },
};

/** Opens the dialog (its code loads on first open) and waits for its settings to replace the loading spinner. */
async function openDialog(name: string) {
  await userEvent.click(await screen.findByRole('button', { name }));
  const dialog = await screen.findByRole('dialog', { name });
  await waitFor(() => expect(dialog.querySelector('.animate-spin')).toBeNull());
  return dialog;
}

describe('Notifications in the account menu', () => {
  beforeEach(() => {
    storeSession();
    setLanguageChoice(null);
  });

  it('saves the channels and shows the webhook secret once, then only its hint', async () => {
    const sent: unknown[] = [];
    // The server's state: what a PUT saved is what the next GET reads (never the secret).
    let stored = SETTINGS;
    mockApi({
      'GET /reports': ok({ from: '', to: '', level: 'account', series: [] }),
      'GET /ad-accounts': ok([]),
      'GET /notifications': () => ok(stored),
      'PUT /notifications': (body) => {
        sent.push(body);
        stored = {
          ...SETTINGS,
          emailErrors: true,
          webhook: { url: 'https://hooks.example.com/a', secretHint: 'whsec_…wxyz' },
        };
        return ok({ ...stored, webhookSecret: 'whsec_abcdefghijklmnopqrstuvwxyz' });
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('Notifications');
    expect(within(dialog).getByText(/messages wait in the administrator's outbox/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText(/E-mail me at once about errors/));
    await userEvent.type(within(dialog).getByLabelText('Webhook address'), 'https://hooks.example.com/a');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByTestId('webhook-secret')).toHaveTextContent('whsec_abcdefghijklmnopqrstuvwxyz');
    expect(sent[0]).toMatchObject({
      emailErrors: true,
      emailDigest: false,
      language: 'en',
      webhookUrl: 'https://hooks.example.com/a',
    });

    // Closed and opened again: the secret is gone, its hint stays.
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    const again = await openDialog('Notifications');
    expect(within(again).queryByTestId('webhook-secret')).not.toBeInTheDocument();
    expect(within(again).getByText('Signing secret: whsec_…wxyz')).toBeInTheDocument();
  });

  it("puts the server's refusal of a private address under the field, in Thai", async () => {
    setLanguageChoice('th');
    mockApi({
      'GET /reports': ok({ from: '', to: '', level: 'account', series: [] }),
      'GET /ad-accounts': ok([]),
      'GET /notifications': ok(SETTINGS),
      'PUT /notifications': {
        status: 400,
        body: {
          success: false,
          code: 'VALIDATION_ERROR',
          message: 'This address points to a private or local network, which AdPilot does not call',
          errors: [
            {
              field: 'webhookUrl',
              message: 'This address points to a private or local network, which AdPilot does not call',
            },
          ],
        },
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('การแจ้งเตือน');
    await userEvent.type(within(dialog).getByLabelText('ที่อยู่เว็บฮุก'), 'http://10.0.0.1/hook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'บันทึก' }));
    expect(
      await within(dialog).findByText('ที่อยู่นี้ชี้ไปยังเครือข่ายส่วนตัวหรือภายในเครื่อง ซึ่ง AdPilot จะไม่เรียก'),
    ).toBeInTheDocument();
    // A scheme the contracts refuse never reaches the server.
    const input = within(dialog).getByLabelText('ที่อยู่เว็บฮุก');
    await userEvent.clear(input);
    await userEvent.type(input, 'ftp://example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'บันทึก' }));
    expect(await within(dialog).findByText('กรอกที่อยู่เว็บที่ขึ้นต้นด้วย https:// หรือ http://')).toBeInTheDocument();
  });

  it('sends the confirmation when e-mail is turned on, says where it went, and resends within the limit', async () => {
    const unverified = { ...SETTINGS, emailVerified: false };
    let stored: NotificationSettings = unverified;
    let resends = 0;
    mockApi({
      ...PAGE,
      'GET /notifications': () => ok(stored),
      'PUT /notifications': () => {
        stored = { ...unverified, emailErrors: true, verificationSentAt: '2026-03-10T02:00:00.000Z' };
        return ok(stored);
      },
      'POST /notifications/email/verification': () => {
        resends += 1;
        return resends === 1
          ? ok(stored)
          : fail(429, 'RATE_LIMITED', 'Too many confirmation e-mails. Please try again later.');
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('Notifications');
    expect(within(dialog).getByText(/AdPilot first sends a confirmation link to this address/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send test e-mail' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Resend' })).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByLabelText(/E-mail me at once about errors/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Verification sent to advertiser@example.com, check your inbox.'),
    ).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Confirmation e-mail sent to advertiser@example.com.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Too many confirmation e-mails. Please try again later.')).toBeInTheDocument();
    expect(resends).toBe(2);
  });

  it('offers to send the confirmation in Thai when e-mail is on but no link is live', async () => {
    setLanguageChoice('th');
    mockApi({
      ...PAGE,
      'GET /notifications': ok({ ...SETTINGS, emailVerified: false, emailDigest: true }),
    });
    renderApp('/reports');
    const dialog = await openDialog('การแจ้งเตือน');
    expect(
      within(dialog).getByText('advertiser@example.com ยังไม่ได้รับการยืนยัน: AdPilot จะไม่ส่งอีเมลใด ๆ ไปจนกว่าคุณจะเปิดลิงก์ยืนยัน'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'ส่งอีเมลยืนยัน' })).toBeInTheDocument();
  });

  it('says a confirmed address is confirmed and lets it take a test e-mail', async () => {
    const tests: unknown[] = [];
    mockApi({
      ...PAGE,
      'GET /notifications': ok({ ...SETTINGS, emailErrors: true }),
      'POST /notifications/test': (body) => {
        tests.push(body);
        return ok({ channel: 'email', delivered: true, status: null, code: null });
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('Notifications');
    expect(within(dialog).getByText('This address is confirmed.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Resend' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send test e-mail' }));
    expect(await within(dialog).findByText('Test e-mail sent.')).toBeInTheDocument();
    expect(tests).toEqual([{ channel: 'email' }]);
  });

  it('saves LINE with its token, ID and switch, then shows only the token hint and sends a test', async () => {
    const sent: Record<string, unknown>[] = [];
    const tests: unknown[] = [];
    let stored = SETTINGS;
    const target = 'C0123456789abcdef0123456789abcdef';
    mockApi({
      ...PAGE,
      'GET /notifications': () => ok(stored),
      'PUT /notifications': (body) => {
        sent.push(body as Record<string, unknown>);
        stored = { ...SETTINGS, line: { target, tokenHint: '…k3n=', enabled: true } };
        return ok(stored);
      },
      'POST /notifications/test': (body) => {
        tests.push(body);
        return tests.length === 1
          ? ok({ channel: 'line', delivered: true, status: 200, code: null })
          : ok({ channel: 'line', delivered: false, status: 429, code: 'quota' });
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('Notifications');
    expect(within(dialog).queryByRole('button', { name: 'Send test to LINE' })).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Channel access token'), 'AbC+/t0k3n=');
    await userEvent.type(within(dialog).getByLabelText('LINE user, group or chat ID'), target);
    await userEvent.click(within(dialog).getByLabelText(/Send notifications to LINE/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('Channel access token: …k3n=')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ lineToken: 'AbC+/t0k3n=', lineTarget: target, line: true });
    expect(within(dialog).getByLabelText('Channel access token')).toHaveValue('');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send test to LINE' }));
    expect(await within(dialog).findByText('Delivered: LINE accepted the message.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send test to LINE' }));
    expect(
      await within(dialog).findByText("Not delivered: the channel's monthly messages or its rate limit are used up."),
    ).toBeInTheDocument();
    expect(tests).toEqual([{ channel: 'line' }, { channel: 'line' }]);
  });

  it('checks the LINE ID and what turning LINE on needs before saving, in Thai', async () => {
    setLanguageChoice('th');
    const sent: unknown[] = [];
    mockApi({
      ...PAGE,
      'GET /notifications': ok(SETTINGS),
      'PUT /notifications': (body) => {
        sent.push(body);
        return ok(SETTINGS);
      },
    });
    renderApp('/reports');
    const dialog = await openDialog('การแจ้งเตือน');
    await userEvent.click(within(dialog).getByLabelText(/ส่งการแจ้งเตือนไปยัง LINE/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'บันทึก' }));
    expect(await within(dialog).findByText('ตั้งค่า Channel access token และ ID ของ LINE ก่อน')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText('ID ผู้ใช้ กลุ่ม หรือแชต LINE'), 'U1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'บันทึก' }));
    expect(
      await within(dialog).findByText('กรอก ID ผู้ใช้ กลุ่ม หรือแชต LINE: U, C หรือ R ตามด้วยอักขระ 0–9 และ a–f จำนวน 32 ตัว'),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
  });
});
