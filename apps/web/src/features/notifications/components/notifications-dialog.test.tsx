import type { NotificationSettings } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

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
};

async function openDialog(name: string) {
  await userEvent.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog', { name });
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
});
