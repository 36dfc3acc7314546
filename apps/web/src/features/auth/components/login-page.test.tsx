import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { buildSession, fail, mockApi, ok, renderApp } from '../../../test/render-app.tsx';

describe('LoginPage', () => {
  it('shows the required messages on submit', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('flags an invalid email and re-validates as the user types after the first submit', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');

    await user.clear(email);
    await user.type(email, 'advertiser@example.com');
    expect(screen.queryByText('Invalid email')).not.toBeInTheDocument();
  });

  it('toggles the password visibility', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('signs in, stores the session and opens the dashboard', async () => {
    const session = buildSession();
    mockApi({ 'POST /auth/login': ok(session) });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), session.user.email);
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: `Welcome back, ${session.user.name}!` })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
    expect(localStorage.getItem('token')).toBe(session.token);
    expect(localStorage.getItem('refreshToken')).toBe(session.refreshToken);
  });

  it("toasts the server's message when sign-in fails", async () => {
    mockApi({ 'POST /auth/login': fail(401, 'INVALID_CREDENTIALS', 'Invalid email or password') });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'advertiser@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('words the refusal by its code for a Thai reader', async () => {
    await i18n.changeLanguage('th');
    mockApi({ 'POST /auth/login': fail(401, 'INVALID_CREDENTIALS', 'Invalid email or password') });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('อีเมล'), 'advertiser@example.com');
    await user.type(screen.getByLabelText('รหัสผ่าน'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'เข้าสู่ระบบ' }));
    expect((await screen.findAllByText('อีเมลหรือรหัสผ่านไม่ถูกต้อง')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Invalid email or password')).not.toBeInTheDocument();
  });

  it('falls back to "Login failed" when the server gives no usable message', async () => {
    mockApi({ 'POST /auth/login': fail(500, 'INTERNAL_ERROR', 'boom') });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'advertiser@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
  });

  it('offers a sign-in code when the account budget refused this browser, and signs in with it', async () => {
    const session = buildSession();
    const api = mockApi({
      'POST /auth/login': (body) =>
        (body as { code?: string }).code === '123456'
          ? ok(session)
          : fail(429, 'LOGIN_ACCOUNT_LIMITED', 'Too many failed sign-in attempts on this account.'),
      'POST /auth/login-code': ok({ message: 'If an account exists for that email, a sign-in code has been sent.' }),
    });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), session.user.email);
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await user.click(await screen.findByRole('button', { name: 'E-mail me a sign-in code' }));
    const code = await screen.findByLabelText('Sign-in code');
    const asked = api.mock.calls.find(([url]) => String(url).endsWith('/auth/login-code'));
    expect(JSON.parse(String(asked?.[1]?.body))).toEqual({ email: session.user.email, language: 'en' });

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it('offers the code in Thai too', async () => {
    await i18n.changeLanguage('th');
    mockApi({ 'POST /auth/login': fail(429, 'LOGIN_ACCOUNT_LIMITED', 'Too many failed sign-in attempts') });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('อีเมล'), 'advertiser@example.com');
    await user.type(screen.getByLabelText('รหัสผ่าน'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'เข้าสู่ระบบ' }));
    expect(await screen.findByRole('button', { name: 'ส่งรหัสเข้าสู่ระบบทางอีเมล' })).toBeInTheDocument();
  });
});
