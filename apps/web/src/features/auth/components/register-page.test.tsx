import { screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildSession, fail, mockApi, ok, renderApp } from '../../../test/render-app.tsx';

async function fill(user: UserEvent, values: Partial<Record<'name' | 'email' | 'password' | 'confirm', string>>) {
  const fields = {
    name: await screen.findByLabelText('Full name'),
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    confirm: screen.getByLabelText('Confirm password'),
  };
  for (const [field, value] of Object.entries(values)) {
    const input = fields[field as keyof typeof fields];
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

async function submit(user: UserEvent, acceptTerms = true) {
  const terms = screen.getByRole('checkbox', { name: /I agree to the Terms of Service and Privacy Policy/ });
  if (acceptTerms && !(terms as HTMLInputElement).checked) await user.click(terms);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('RegisterPage', () => {
  it('shows the required messages for every empty field', async () => {
    const user = userEvent.setup();
    renderApp('/register');
    await fill(user, {});
    await submit(user);
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
  });

  it.each([
    [{ name: 'A' }, 'Name must be at least 2 characters'],
    [{ email: 'nope' }, 'Invalid email'],
    [{ password: 'Ab1' }, 'Password must be at least 8 characters'],
    [{ password: 'ABCDEFG1' }, 'Password must contain at least one lowercase letter'],
    [{ password: 'abcdefg1' }, 'Password must contain at least one uppercase letter'],
    [{ password: 'Abcdefgh' }, 'Password must contain at least one number'],
    [{ password: 'Abcdefg1', confirm: 'Abcdefg2' }, 'Passwords must match'],
  ])('explains what is wrong with %o', async (values, message) => {
    const user = userEvent.setup();
    renderApp('/register');
    await fill(user, values);
    await submit(user);
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('leaves the unticked terms box to the browser and sends nothing', async () => {
    const fetchMock = mockApi({});
    const user = userEvent.setup();
    renderApp('/register');
    await fill(user, { name: 'Test Advertiser', email: 'a@example.com', password: 'Abcdefg1', confirm: 'Abcdefg1' });
    await submit(user, false);
    expect(screen.getByRole('checkbox', { name: /I agree/ })).toBeRequired();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the account and opens the dashboard', async () => {
    const session = buildSession();
    const fetchMock = mockApi({ 'POST /auth/register': ok(session) });
    const user = userEvent.setup();
    renderApp('/register');
    await fill(user, { name: session.user.name, email: session.user.email, password: 'Abcdefg1', confirm: 'Abcdefg1' });
    await submit(user);
    expect(await screen.findByText('Registration successful!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: `Welcome, ${session.user.name}!` })).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      name: session.user.name,
      email: session.user.email,
      password: 'Abcdefg1',
    });
  });

  it('lists every password rule before anything is typed, and ticks each as it is met', async () => {
    const user = userEvent.setup();
    renderApp('/register');
    const password = await screen.findByLabelText('Password');
    const rules = ['At least 8 characters', 'A lowercase letter', 'An uppercase letter', 'A number'];
    const rule = (text: string) => screen.getByText(text).closest('li');
    for (const text of rules) expect(rule(text)).toHaveAttribute('data-met', 'false');
    expect(password).toHaveAccessibleDescription(`Your password needs: ${rules.join(' ')}`);

    await user.type(password, 'abc1');
    expect(rule('A lowercase letter')).toHaveAttribute('data-met', 'true');
    expect(rule('A number')).toHaveAttribute('data-met', 'true');
    expect(rule('At least 8 characters')).toHaveAttribute('data-met', 'false');
    expect(rule('An uppercase letter')).toHaveAttribute('data-met', 'false');

    await user.type(password, 'DEFGH');
    for (const text of rules) expect(rule(text)).toHaveAttribute('data-met', 'true');
  });

  it('lists the password rules in Thai', async () => {
    setLanguageChoice('th');
    renderApp('/register');
    expect(await screen.findByText('รหัสผ่านต้องมี:')).toBeInTheDocument();
    expect(screen.getByText('อย่างน้อย 8 ตัวอักษร')).toBeInTheDocument();
  });

  it('starts with the address a link names', async () => {
    renderApp('/register?next=%2Fdashboard&email=invited%40example.com');
    expect(await screen.findByLabelText('Email')).toHaveValue('invited@example.com');
  });

  it('shows a taken e-mail under the field and in a toast', async () => {
    mockApi({ 'POST /auth/register': fail(409, 'EMAIL_TAKEN', 'An account with this email already exists') });
    const user = userEvent.setup();
    renderApp('/register');
    await fill(user, {
      name: 'Test Advertiser',
      email: 'taken@example.com',
      password: 'Abcdefg1',
      confirm: 'Abcdefg1',
    });
    await submit(user);
    expect(await screen.findAllByText('An account with this email already exists')).toHaveLength(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });
});
