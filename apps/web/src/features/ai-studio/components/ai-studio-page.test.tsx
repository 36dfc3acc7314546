import type { AiUsage, AlgorithmHack } from '@adpilot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { AiStudioPage } from './ai-studio-page.tsx';

type Reply = { status: number; body: unknown };
const ok = (data: unknown): Reply => ({ status: 200, body: { success: true, data } });
const usage = (overrides: Partial<AiUsage> = {}): AiUsage => ({
  plan: 'free',
  used: 3,
  limit: 100,
  hacksAccess: 'limited',
  provider: 'builtin',
  waitlistJoined: false,
  modelCalls: 0,
  tokens: 0,
  ...overrides,
});
const hack = (technique: string, locked = false): AlgorithmHack => ({
  technique,
  riskLevel: 'low',
  effectiveness: 20,
  description: locked ? null : `${technique} explained`,
  implementation: locked ? null : `${technique} steps`,
  locked,
});

let calls: { method: string; path: string; body: unknown }[];
let routes: Map<string, (body: unknown) => Reply>;

beforeEach(() => {
  calls = [];
  routes = new Map([['GET /ai/usage', () => ok(usage())]]);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api/, '');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      const reply = routes.get(`${method} ${path}`)?.(body) ?? {
        status: 404,
        body: { success: false, code: 'NOT_FOUND', message: 'Not found' },
      };
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  void i18n.changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>
            <AiStudioPage />
          </MemoryRouter>
          <Toaster />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
  return { user };
}

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);

describe('usage card', () => {
  it.each([
    [50, 'blue', false],
    [75, 'yellow', false],
    [95, 'red', true],
  ])('at %i percent the bar is %s (warning shown: %s)', async (used, tone, warns) => {
    routes.set('GET /ai/usage', () => ok(usage({ used, limit: 100 })));
    renderPage();
    const bar = await screen.findByRole('progressbar', { name: 'AI requests this month' });
    expect(bar).toHaveAttribute('data-tone', tone);
    expect(screen.getByTestId('ai-usage-count')).toHaveTextContent(`${used} / 100`);
    const warning = screen.queryByText('Usage limit almost reached. Consider upgrading your plan.');
    expect(Boolean(warning)).toBe(warns);
  });

  it('shows unlimited as infinity with an empty bar', async () => {
    routes.set('GET /ai/usage', () => ok(usage({ used: 12, limit: -1, plan: 'pro' })));
    renderPage();
    expect(await screen.findByTestId('ai-usage-count')).toHaveTextContent('12 / ∞');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  });
});

describe('tabs', () => {
  it('assistant: disabled while blank, cleared after sending, the answer shown with its line breaks', async () => {
    routes.set('POST /ai/chat', () => ok({ response: 'Line one\n- bullet two' }));
    const { user } = renderPage();
    const button = screen.getByRole('button', { name: 'Get AI Advice' });
    expect(button).toBeDisabled();
    const box = screen.getByLabelText('Your question');
    await user.type(box, '   ');
    expect(button).toBeDisabled();
    await user.type(box, 'How do I lower CPA?');
    await user.click(button);
    expect(box).toHaveValue('');
    expect(await screen.findByTestId('ai-response')).toHaveTextContent('Line one - bullet two');
    expect(screen.getByTestId('ai-response').textContent).toContain('\n');
    expect(await screen.findByText('AI response generated!')).toBeInTheDocument();
    expect(callsTo('POST', '/ai/chat')[0]?.body).toEqual({ message: '   How do I lower CPA?'.trim(), language: 'en' });
  });

  it('assistant: citations link to their entities, a follow-up keeps the conversation, past ones are listed', async () => {
    const id = '6274a910-f332-4656-bea2-d0c15d0d0b51';
    const conversationId = '11111111-2222-4333-8444-555555555555';
    const answer = `Spend with no results:\n1. [Broad Visits](/campaigns/${id}): ฿38,621.12 spent, [evil](https://evil.example)`;
    routes.set('POST /ai/chat', () =>
      ok({
        response: answer,
        conversationId,
        citations: [{ entityId: id, name: 'Broad Visits', figure: '฿38,621.12', href: `/campaigns/${id}` }],
        proposals: [],
        language: 'en',
        counted: true,
      }),
    );
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Your question'), 'Which campaigns waste money?');
    await user.click(screen.getByRole('button', { name: 'Get AI Advice' }));
    const response = await screen.findByTestId('ai-response');
    const links = within(response).getAllByRole('link');
    // Only our own pages become links; an outside address stays text.
    expect(links.map((link) => link.getAttribute('href'))).toEqual([`/campaigns/${id}`]);
    expect(response).toHaveTextContent('[evil](https://evil.example)');
    expect(within(screen.getByTestId('ai-citations')).getByRole('link', { name: 'Broad Visits' })).toHaveAttribute(
      'href',
      `/campaigns/${id}`,
    );
    await user.type(screen.getByLabelText('Your question'), 'And over 30 days?');
    await user.click(screen.getByRole('button', { name: 'Get AI Advice' }));
    await waitFor(() => expect(callsTo('POST', '/ai/chat')).toHaveLength(2));
    expect(callsTo('POST', '/ai/chat')[1]?.body).toMatchObject({ message: 'And over 30 days?', conversationId });
  });

  it("assistant: a refusal shows the server's reason by its code", async () => {
    routes.set('POST /ai/chat', () => ({
      status: 429,
      body: { success: false, code: 'AI_REQUEST_LIMIT_REACHED', message: 'quota' },
    }));
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Your question'), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Get AI Advice' }));
    expect(
      await screen.findByText("You have used this month's AI requests. Upgrade your plan for more"),
    ).toBeInTheDocument();
  });

  it('assistant: a used-up quota names the plan and its limit and links to the Subscription page', async () => {
    routes.set('POST /ai/chat', () => ({
      status: 429,
      body: {
        success: false,
        code: 'AI_REQUEST_LIMIT_REACHED',
        message: 'quota',
        params: { plan: 'free', limit: 30 },
      },
    }));
    const { user } = renderPage();
    await user.type(screen.getByLabelText('Your question'), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Get AI Advice' }));
    expect(
      await screen.findByText('Your Free plan includes 30 AI requests a month, and they are used.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans and upgrade' })).toHaveAttribute('href', '/subscription');
  });

  it("analysis: an account's own figures over a range, nothing pasted", async () => {
    const accountId = '6274a910-f332-4656-bea2-d0c15d0d0b51';
    routes.set('GET /ad-accounts', () => ok([{ id: accountId, facebook_account_name: 'Siam Living Store' }]));
    routes.set('POST /ai/analyze-performance', () =>
      ok([{ type: 'success', title: 'Strong return on ad spend', description: 'ROAS is 5.' }]),
    );
    const { user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Performance Analysis' }));
    expect(await screen.findByLabelText('Ad account')).toHaveDisplayValue('Siam Living Store');
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Analyze this account' }));
    expect(await screen.findByText('Strong return on ad spend')).toBeInTheDocument();
    expect(callsTo('POST', '/ai/analyze-performance')[0]?.body).toEqual({
      adAccountId: accountId,
      from: from.value,
      to: to.value,
    });
    expect(from.value <= to.value).toBe(true);
  });

  it('analysis: the spec messages, then results with coloured type badges', async () => {
    routes.set('POST /ai/analyze-performance', () =>
      ok([
        { type: 'warning', title: 'Ad fatigue risk', description: 'Frequency is 5.' },
        { type: 'optimization', title: 'Low click-through rate', description: 'CTR is 0.50%.' },
        { type: 'success', title: 'Strong return on ad spend', description: 'ROAS is 5.' },
      ]),
    );
    const { user } = renderPage();
    await user.click(screen.getByRole('tab', { name: 'Performance Analysis' }));
    const submit = screen.getByRole('button', { name: 'Analyze Performance' });
    await user.click(submit);
    expect(screen.getByText('Please enter campaign data')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Campaign data (JSON)'), 'spend: 100');
    await user.click(submit);
    expect(screen.getByText('Please enter valid JSON data')).toBeInTheDocument();
    expect(callsTo('POST', '/ai/analyze-performance')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Campaign data (JSON)'));
    await user.type(screen.getByLabelText('Campaign data (JSON)'), '{{"spend": 100}');
    await user.click(submit);
    const items = await screen.findAllByTestId('analysis-item');
    expect(items.map((item) => within(item).getByText(/warning|optimization|success/).dataset.type)).toEqual([
      'warning',
      'optimization',
      'success',
    ]);
    expect(callsTo('POST', '/ai/analyze-performance')[0]?.body).toEqual({ campaignData: { spend: 100 } });
    expect(await screen.findByText('Campaign analysis completed!')).toBeInTheDocument();
  });

  it('content: instagram among the platforms, numbered variations, each copied to the clipboard', async () => {
    routes.set('POST /ai/generate-ad-copy', () => ok(['Headline A\nText A', 'Headline B\nText B']));
    const { user } = renderPage();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('tab', { name: 'Content Studio' }));
    await user.selectOptions(screen.getByLabelText('Platform'), 'instagram');
    await user.click(screen.getByRole('button', { name: 'Generate Ad Copy' }));
    expect(screen.getByText('Please enter product information')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Product information (JSON)'), '{{"name": "Tea"}');
    await user.click(screen.getByRole('button', { name: 'Generate Ad Copy' }));
    expect(await screen.findAllByTestId('ad-copy-variation')).toHaveLength(2);
    expect(callsTo('POST', '/ai/generate-ad-copy')[0]?.body).toEqual({
      productInfo: { name: 'Tea' },
      platform: 'instagram',
    });
    await user.click(screen.getByRole('button', { name: 'Copy Variation 2' }));
    expect(writeText).toHaveBeenCalledWith('Headline B\nText B');
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
  });

  it('hacks: fetched only once the tab is open, again on a platform change, limited on the free plan', async () => {
    routes.set('GET /ai/algorithm-hacks/facebook', () => ok([hack('Broad targeting'), hack('Cost caps', true)]));
    routes.set('GET /ai/algorithm-hacks/tiktok', () => ok([]));
    const { user } = renderPage();
    await screen.findByTestId('ai-usage-count');
    expect(calls.some((call) => call.path.startsWith('/ai/algorithm-hacks'))).toBe(false);
    await user.click(screen.getByRole('tab', { name: 'Algorithm Hacks' }));
    expect(await screen.findByText('Broad targeting')).toBeInTheDocument();
    expect(screen.getByTestId('hacks-access')).toHaveTextContent('Limited access');
    expect(screen.getByText('Upgrade your plan to see how to apply this technique.')).toBeInTheDocument();
    const options = within(screen.getByLabelText('Platform')).getAllByRole('option');
    expect(options.map((option) => option.getAttribute('value'))).toEqual(['facebook', 'google', 'tiktok', 'linkedin']);
    await user.selectOptions(screen.getByLabelText('Platform'), 'tiktok');
    expect(await screen.findByText('No algorithm hacks available for this platform')).toBeInTheDocument();
    expect(callsTo('GET', '/ai/algorithm-hacks/tiktok')).toHaveLength(1);
  });

  it('automation: Coming Soon, and Join Waitlist records the interest once and says so', async () => {
    routes.set('POST /ai/waitlist', () => ok({ joined: true, alreadyJoined: false }));
    const { user } = renderPage();
    await screen.findByTestId('ai-usage-count');
    await user.click(screen.getByRole('tab', { name: 'Automation' }));
    expect(screen.getByText('Coming Soon')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join Waitlist' }));
    expect(await screen.findByText("You're on the waitlist. We'll let you know when it's ready.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join Waitlist' })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo('POST', '/ai/waitlist')).toHaveLength(1));
  });

  it('is Thai when the user chose Thai', async () => {
    void i18n.changeLanguage('th');
    renderPage();
    expect(screen.getByRole('tab', { name: 'ผู้ช่วย AI' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'รับคำแนะนำจาก AI' })).toBeDisabled();
  });

  it('moves between the five tabs from the keyboard: arrows wrap, Home and End jump, focus follows', async () => {
    const { user } = renderPage();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'AI Assistant',
      'Performance Analysis',
      'Content Studio',
      'Algorithm Hacks',
      'Automation',
    ]);
    // Only the chosen tab is in the tab order.
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    await user.click(tabs[0]!);
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Automation' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Automation' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Automation' })).toHaveTextContent('Coming Soon');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'AI Assistant' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Performance Analysis' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Automation' })).toHaveFocus();
  });
});
