import { DEMO_VISITOR_EMAIL, PLAN_TABLE } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildSession, buildUser, fail, mockApi, ok, renderApp } from '../../../test/render-app.tsx';

// Intl writes no-break spaces; the DOM text matchers see plain ones.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('LandingPage', () => {
  it('offers sign-in and sign-up and lists the six benefits', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '/register');
    for (const benefit of [
      'Intelligent Automation',
      '24/7 Monitoring',
      'Advanced Analytics',
      'Secure & Reliable',
      'Easy Setup',
      'Cost Effective',
    ]) {
      expect(screen.getByRole('heading', { name: benefit })).toBeInTheDocument();
    }
  });

  it('has the footer links and the copyright line', async () => {
    renderApp('/');
    const footer = within(await screen.findByRole('navigation', { name: 'Footer' }));
    expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(footer.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
    expect(footer.getByRole('link', { name: 'Support' })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
    expect(screen.getByText('© 2024 AdPilot. All rights reserved.')).toBeInTheDocument();
  });

  it('Watch Demo opens the read-only demo with its banner, whose button leads to the sign-up form', async () => {
    setLanguageChoice('en');
    const session = buildSession(buildUser({ email: DEMO_VISITOR_EMAIL, name: 'Demo visitor' }));
    mockApi({
      'POST /demo/session': ok({ ...session, workspaceId: crypto.randomUUID(), expiresAt: new Date().toISOString() }),
      'POST /auth/logout': ok({ message: 'Logged out' }),
    });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Watch Demo' }));
    const banner = await screen.findByRole('complementary', { name: 'Demo' });
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
    expect(banner).toHaveTextContent('You are looking around a read-only demo with sample data');
    expect(localStorage.getItem('token')).toBe(session.token);

    await user.click(within(banner).getByRole('button', { name: 'Create your free account' }));
    expect(await screen.findByRole('heading', { level: 1, name: /create/i })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('Watch Demo says why when the demo cannot open', async () => {
    setLanguageChoice('en');
    mockApi({
      'POST /demo/session': fail(
        429,
        'RATE_LIMITED',
        'Too many demo sessions from this address. Please try again later.',
      ),
    });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Watch Demo' }));
    expect(
      await screen.findByText('Too many demo sessions from this address. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/');
  });

  it('tours the product in four stops, its money in the reader’s currency', async () => {
    setLanguageChoice('en');
    renderApp('/');
    const tour = within(await screen.findByRole('region', { name: 'A tour of AdPilot' }));
    const stops = tour.getAllByRole('listitem');
    expect(stops.map((stop) => stop.getAttribute('aria-label'))).toEqual([
      'Write a rule in a sentence',
      'Approve first, or let it act',
      'Every change on record',
      'Reports for you and your clients',
    ]);
    expect(stops[0]).toHaveTextContent(`If CPA (last 7 days) is above ${plain(formatMoney(15, 'USD', 'en'))}`);
    expect(stops[1]).toHaveTextContent('4 changes wait for your approval');
    expect(stops[2]).toHaveTextContent(
      `raised: ${plain(formatMoney(30, 'USD', 'en'))} → ${plain(formatMoney(36, 'USD', 'en'))}`,
    );
  });

  it('lists every plan of the plan table with its figures and both prices, in English', async () => {
    setLanguageChoice('en');
    renderApp('/');
    const plans = within(await screen.findByRole('region', { name: 'Plans' }));
    expect(plans.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(
      PLAN_TABLE.map((plan) => plan.name),
    );
    for (const plan of PLAN_TABLE) {
      const card = within(plans.getByRole('listitem', { name: plan.name }));
      expect(card.getByTestId(`price-usd-${plan.id}`)).toHaveTextContent(
        plain(formatMoney(plan.prices.USD, 'USD', 'en')),
      );
      expect(card.getByTestId(`price-thb-${plan.id}`)).toHaveTextContent(
        `or ${plain(formatMoney(plan.prices.THB, 'THB', 'en'))}/month`,
      );
      // The card's figures are the ones the server enforces (the same table), never a promise beside them.
      expect(card.getByText(`Rule backtests over ${plan.limits.backtestDays} days`)).toBeInTheDocument();
      const link = card.getByRole('link', { name: plan.prices.USD === 0 ? 'Start free' : `Start with ${plan.name}` });
      expect(link).toHaveAttribute('href', '/register');
    }
    const free = within(plans.getByRole('listitem', { name: 'Free' }));
    expect(free.getByText('1 ad account')).toBeInTheDocument();
    expect(
      within(plans.getByRole('listitem', { name: 'Enterprise' })).getByText('Unlimited ad accounts'),
    ).toBeInTheDocument();
  });

  it('shows the tour and the plans in Thai, money as Thai writes it', async () => {
    setLanguageChoice('th');
    renderApp('/');
    const plans = within(await screen.findByRole('region', { name: 'แผนการใช้งาน' }));
    const pro = PLAN_TABLE.find((plan) => plan.id === 'pro')!;
    const card = within(plans.getByRole('listitem', { name: 'Pro' }));
    expect(card.getByTestId('price-usd-pro')).toHaveTextContent(plain(formatMoney(pro.prices.USD, 'USD', 'th')));
    expect(card.getByTestId('price-thb-pro')).toHaveTextContent(
      `หรือ ${plain(formatMoney(pro.prices.THB, 'THB', 'th'))}/เดือน`,
    );
    expect(card.getByRole('link', { name: 'เริ่มต้นด้วย Pro' })).toHaveAttribute('href', '/register');
    const tour = within(screen.getByRole('region', { name: 'ชม AdPilot' }));
    expect(
      tour.getByText(`ถ้า CPA (7 วันล่าสุด) มากกว่า ${plain(formatMoney(500, 'THB', 'th'))} ให้หยุดโฆษณา`),
    ).toBeInTheDocument();
    expect(screen.getByText('© 2024 AdPilot สงวนลิขสิทธิ์')).toBeInTheDocument();
  });
});
