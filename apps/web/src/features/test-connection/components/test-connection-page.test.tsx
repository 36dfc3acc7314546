import type { DiagnosticTest } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { buildSession, buildUser, fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const HEALTH = {
  status: 'ok',
  version: '0.1.0',
  uptimeSeconds: 5,
  database: { up: true, kind: 'pglite', latencyMs: 1 },
  role: 'all',
};
const INFO = {
  enabled: true,
  environment: {
    mode: 'production',
    database: 'pglite',
    role: 'all',
    versions: { app: '0.1.0', node: 'v22.0.0', database: '18.0' },
    providers: { ai: 'builtin', meta: 'sandbox', billing: 'local', mail: 'outbox' },
    missing: ['smtp'],
  },
};

const result = (test: DiagnosticTest, status: string, code: string, params = {}) =>
  ok({ test, status, code, params, durationMs: 3 });

describe('TestConnectionPage', () => {
  it('is open without signing in, runs every test and lists passed, warning and failed', async () => {
    mockApi({
      'GET /health': ok(HEALTH),
      'GET /diagnostics': ok(INFO),
      'POST /diagnostics/tests/database': result('database', 'passed', 'database_connected', { latencyMs: 2 }),
      'POST /diagnostics/tests/auth': result('auth', 'passed', 'auth_working'),
      'POST /diagnostics/tests/rls': result('rls', 'failed', 'rls_leak'),
      'POST /diagnostics/tests/database-access': result(
        'database-access',
        'warning',
        'database_access_no_plans_table',
        {
          users: 4,
        },
      ),
      'POST /diagnostics/tests/registration': result('registration', 'passed', 'registration_completed'),
    });
    const user = userEvent.setup();
    renderApp('/test');
    expect(await screen.findByTestId('environment')).toHaveTextContent('SMTP server (mail waits in the outbox)');
    await waitFor(() => expect(screen.getByTestId('live-status')).toHaveAttribute('data-state', 'ok'));

    await user.click(screen.getByRole('button', { name: 'Run All Tests' }));
    const list = await screen.findByRole('list', { name: 'Results' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(5));
    expect(screen.getByTestId('result-database')).toHaveTextContent('Successfully connected to the database (2 ms)');
    expect(screen.getByTestId('result-rls')).toHaveAttribute('data-status', 'failed');
    expect(screen.getByTestId('result-database-access')).toHaveTextContent('4 users; no subscription plans table yet');
    expect(screen.getByTestId('result-registration')).toHaveTextContent('Passed');
  });

  it('says diagnostics are disabled and offers no test buttons', async () => {
    mockApi({ 'GET /health': ok(HEALTH), 'GET /diagnostics': ok({ enabled: false }) });
    renderApp('/test');
    expect(await screen.findByText('Diagnostics are disabled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run All Tests' })).not.toBeInTheDocument();
  });

  it.each([
    ['en', "The tests are the administrator's", 'Sign in as the administrator to run them.', 'Sign in'],
    ['th', 'การทดสอบเป็นของผู้ดูแลระบบ', 'โปรดเข้าสู่ระบบในฐานะผู้ดูแลระบบเพื่อเรียกใช้', 'เข้าสู่ระบบ'],
  ])(
    'signed out once there is an administrator, says the tests are theirs and offers to sign in (%s)',
    async (language, title, words, signIn) => {
      await i18n.changeLanguage(language);
      mockApi({ 'GET /health': ok(HEALTH), 'GET /diagnostics': fail(401, 'UNAUTHORIZED', 'Authentication required') });
      renderApp('/test');
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      const card = screen.getByTestId('admin-only');
      expect(card).toHaveTextContent(words);
      expect(within(card).getByRole('link', { name: signIn })).toHaveAttribute('href', '/login?next=%2Ftest');
      // The page's answer, not an ended session: the visitor stays on it.
      expect(screen.getByTestId('location')).toHaveTextContent('/test');
      expect(screen.queryByRole('button', { name: /Run All Tests|รันการทดสอบทั้งหมด/ })).not.toBeInTheDocument();
    },
  );

  it('signed in as another user, says only the administrator may run the tests', async () => {
    storeSession(buildSession(buildUser({ role: 'user' })));
    mockApi({
      'GET /health': ok(HEALTH),
      'GET /auth/me': ok(buildUser({ role: 'user' })),
      'GET /diagnostics': fail(403, 'FORBIDDEN', 'Only the instance administrator can do this'),
    });
    renderApp('/test');
    expect(await screen.findByText(/You are signed in with another account/)).toBeInTheDocument();
    expect(within(screen.getByTestId('admin-only')).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run All Tests' })).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'Too many diagnostic checks from this address. Please try again later.'],
    ['th', 'ลองหลายครั้งเกินไป กรุณารอสักครู่แล้วลองใหม่'],
  ])('words a refused check by its code in the reader’s language (%s)', async (language, words) => {
    await i18n.changeLanguage(language);
    const refused = fail(429, 'RATE_LIMITED', 'Too many diagnostic checks from this address. Please try again later.');
    mockApi({
      'GET /health': ok(HEALTH),
      'GET /diagnostics': ok(INFO),
      'POST /diagnostics/tests/database': refused,
      'POST /diagnostics/tests/auth': refused,
      'POST /diagnostics/tests/rls': refused,
      'POST /diagnostics/tests/database-access': refused,
      'POST /diagnostics/tests/registration': refused,
    });
    const user = userEvent.setup();
    renderApp('/test');
    const runAll = language === 'th' ? 'รันการทดสอบทั้งหมด' : 'Run All Tests';
    await user.click(await screen.findByRole('button', { name: runAll }));
    expect((await screen.findAllByText(words)).length).toBeGreaterThan(0);
  });

  it('falls back to its own words when the server fails', async () => {
    mockApi({
      'GET /health': ok(HEALTH),
      'GET /diagnostics': ok(INFO),
      'POST /diagnostics/tests/database': fail(500, 'INTERNAL_ERROR', 'Internal Server Error'),
    });
    const user = userEvent.setup();
    renderApp('/test');
    const row = await screen.findByRole('button', { name: 'Database connection' });
    await user.click(row);
    expect(await screen.findByText('The test could not be run')).toBeInTheDocument();
    expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
  });
});
