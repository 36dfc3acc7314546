import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';

describe('LandingPage', () => {
  afterEach(() => {
    // jsdom has no scrollIntoView; the Watch Demo test lends one.
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

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

  it('Watch Demo brings the "How it works" steps into view', async () => {
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Watch Demo' }));
    const heading = screen.getByRole('heading', { name: 'How it works' });
    expect(scrollIntoView).toHaveBeenCalledOnce();
    expect(heading).toHaveFocus();
  });
});
