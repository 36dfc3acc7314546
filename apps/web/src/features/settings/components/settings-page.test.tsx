import { SECRET_MASK, type OutboxMail } from '@adpilot/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildView } from '../test/settings-view.ts';
import { buildSession, buildUser, fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
  localStorage.clear();
  act(() => setLanguageChoice(null));
});

const STATUSES = {
  openai: 'not_configured',
  stripe: 'not_configured',
  facebook: 'connected',
  database: 'connected',
  smtp: 'disconnected',
};

function signInAs(role: 'admin' | 'user') {
  storeSession(buildSession(buildUser({ role })));
}

describe('SettingsPage', () => {
  it('shows a member the administrators-only screen and asks the server nothing about settings', async () => {
    signInAs('user');
    const api = mockApi({ 'GET /auth/me': ok(buildUser({ role: 'user' })) });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Administrators only' })).toBeInTheDocument();
    expect(api.mock.calls.some(([url]) => String(url).includes('/settings'))).toBe(false);
  });

  it('shows the four sections, the status icons of §4 and a masked secret for the admin', async () => {
    signInAs('admin');
    const view = buildView({
      openaiApiKey: SECRET_MASK,
      aiProvider: 'openai',
      fields: {
        ...buildView().fields,
        openaiApiKey: { source: 'environment', readOnly: true, secret: true, set: true },
      },
    });
    mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(view),
      'GET /settings/test-connections': ok(STATUSES),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    for (const name of ['API Keys', 'Database', 'Payment', 'AI Services'])
      expect(within(nav).getByRole('button', { name })).toBeInTheDocument();
    const key = screen.getByLabelText('OpenAI API Key');
    expect(key).toHaveValue(SECRET_MASK);
    expect(key).toBeDisabled();
    expect(screen.getByText('From the environment: change it there and restart the server.')).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'AI Services' }));
    const card = (service: string) => screen.getByTestId(`status-card-${service}`);
    await waitFor(() => expect(within(card('database')).getByRole('img', { name: 'Connected' })).toBeInTheDocument());
    expect(within(card('smtp')).getByRole('img', { name: 'Disconnected' })).toBeInTheDocument();
    // Not configured is none of the two: the warning icon.
    expect(within(card('stripe')).getByRole('img', { name: 'Not configured' })).toHaveAttribute(
      'data-status',
      'not_configured',
    );
  });

  it('lists the outbox mail with what each carried attached, sized by Intl, in English and Thai', async () => {
    signInAs('admin');
    const asked: URL[] = [];
    const mail = (overrides: Partial<OutboxMail>): OutboxMail => ({
      id: '00000000-0000-4000-8000-0000000000f1',
      to: 'client@shop.example',
      subject: 'Weekly report: Nov 16 – 22, 2026',
      text: 'Spend ฿12,000 (+8%)',
      createdAt: '2026-11-23T01:00:00.000Z',
      expiresAt: '2026-11-30T01:00:00.000Z',
      attachments: [],
      ...overrides,
    });
    mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(buildView()),
      'GET /settings/test-connections': ok(STATUSES),
      'GET /admin/outbox': (_body, url) => {
        asked.push(url);
        return ok([
          mail({
            attachments: [
              { fileName: 'adpilot-report-2026-11-16.pdf', contentType: 'application/pdf', size: 48_213 },
              { fileName: 'logo.png', contentType: 'image/png', size: 812 },
            ],
          }),
          mail({ id: '00000000-0000-4000-8000-0000000000f2', subject: 'Reset your password', to: 'nok@example.com' }),
        ]);
      },
    });
    const user = userEvent.setup();
    renderApp('/settings');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    await user.click(within(nav).getByRole('button', { name: 'Mail outbox' }));
    const report = await screen.findByRole('article', { name: 'Weekly report: Nov 16 – 22, 2026' });
    expect(report).toHaveTextContent('To client@shop.example');
    const files = within(within(report).getByRole('list', { name: 'Attachments' })).getAllByRole('listitem');
    expect(files.map((item) => item.textContent)).toEqual([
      'adpilot-report-2026-11-16.pdf (application/pdf, 48 kB)',
      'logo.png (image/png, 812 bytes)',
    ]);
    expect(screen.getByRole('article', { name: 'Reset your password' })).toHaveTextContent('No attachments');
    expect(asked[0]!.searchParams.get('limit')).toBe('50');
    // Nothing to save in a list that is only read.
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();

    act(() => setLanguageChoice('th'));
    expect(await screen.findByRole('heading', { name: 'กล่องจดหมายขาออก' })).toBeInTheDocument();
    expect(screen.getByText('logo.png').parentElement).toHaveTextContent('logo.png (image/png, 812 ไบต์)');
  });

  it('requires the OpenAI key when the OpenAI provider is chosen (spec §5)', async () => {
    signInAs('admin');
    const api = mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(buildView()),
      'GET /settings/test-connections': ok(STATUSES),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.selectOptions(await screen.findByLabelText('AI provider'), 'openai');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('OpenAI API Key is required for AI features')).toBeInTheDocument();
    expect(api.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('saves only what changed (a kept secret stays out) and toasts in Thai as the spec shows', async () => {
    signInAs('admin');
    const view = buildView({
      stripeSecretKey: SECRET_MASK,
      fields: { ...buildView().fields, stripeSecretKey: { source: 'saved', readOnly: false, secret: true, set: true } },
    });
    const saved: unknown[] = [];
    mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(view),
      'GET /settings/test-connections': ok(STATUSES),
      'PUT /settings': (body) => {
        saved.push(body);
        return ok(view);
      },
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Payment' }));
    await user.type(screen.getByLabelText('Stripe publishable key'), 'pk_test_123');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('บันทึกการตั้งค่าเสร็จสิ้น')).toBeInTheDocument();
    expect(saved[0]).toMatchObject({ stripePublishableKey: 'pk_test_123' });
    expect(saved[0]).not.toHaveProperty('stripeSecretKey');
  });

  it('tests one service and toasts the result with the service name (spec §8)', async () => {
    signInAs('admin');
    mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(buildView()),
      'GET /settings/test-connections': ok(STATUSES),
      'POST /settings/test-connection/openai': ok({
        service: 'openai',
        success: false,
        status: 'disconnected',
        code: 'auth_rejected',
        detail: 'Incorrect API key provided',
        message: 'OpenAI refused the credentials: Incorrect API key provided',
        latencyMs: 12,
      }),
      'POST /settings/test-connection/database': fail(500, 'INTERNAL_ERROR', 'boom'),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Test OpenAI' }));
    expect(
      await screen.findByText('OpenAI เชื่อมต่อไม่สำเร็จ: ปฏิเสธข้อมูลรับรอง (Incorrect API key provided)'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Database' }));
    await user.click(screen.getByRole('button', { name: 'Test Database' }));
    expect(await screen.findByText('ไม่สามารถทดสอบการเชื่อมต่อ ฐานข้อมูล ได้')).toBeInTheDocument();
  });

  it('toasts in English once the user picked English', async () => {
    signInAs('admin');
    act(() => setLanguageChoice('en'));
    mockApi({
      'GET /auth/me': ok(buildUser({ role: 'admin' })),
      'GET /settings': ok(buildView()),
      'GET /settings/test-connections': ok(STATUSES),
      'PUT /settings': fail(400, 'VALIDATION_ERROR', 'Invalid'),
    });
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('The settings could not be saved')).toBeInTheDocument();
  });
});
