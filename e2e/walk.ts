import type { Rule, RuleTemplate, Session } from '@adpilot/contracts';
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { connectSandbox, E2E_ADMIN, signInFreshUser, storeSession } from './session.ts';

/**
 * Every screen of the product, in the order a reviewer would walk it, for the accessibility walk
 * (e2e/accessibility.spec.ts) and the screenshot tour (e2e/tour/screenshots.tour.ts). A screen is named once here,
 * so both cover the same list.
 */
export const LANGUAGES = ['en', 'th'] as const;
export const THEMES = ['light', 'dark'] as const;
export const WIDTHS = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;

export type Language = (typeof LANGUAGES)[number];
export type Theme = (typeof THEMES)[number];

export interface Combination {
  language: Language;
  theme: Theme;
  width: (typeof WIDTHS)[number];
}

export const COMBINATIONS: readonly Combination[] = LANGUAGES.flatMap((language) =>
  THEMES.flatMap((theme) => WIDTHS.map((width) => ({ language, theme, width }))),
);

export function combinationName({ language, theme, width }: Combination): string {
  return `${language}-${theme}-${width.name}`;
}

/**
 * Stores the language and theme choices before the app's first script runs, on every page the context opens, the
 * way the language menu and the theme toggle store them (spec §2).
 */
export async function chooseLanguageAndTheme(context: BrowserContext, language: Language, theme: Theme) {
  await context.addInitScript(
    ([chosenLanguage, chosenTheme]) => {
      const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
        .localStorage;
      storage.setItem('language', chosenLanguage);
      storage.setItem('theme', chosenTheme);
    },
    [language, theme] as const,
  );
}

/** Stores the language choice before the app's first script runs, on every page the context opens (spec §2). */
export async function chooseLanguage(context: BrowserContext, language: Language) {
  await context.addInitScript((chosen) => {
    const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
      .localStorage;
    storage.setItem('language', chosen);
  }, language);
}

/**
 * Shows the page in a theme without reloading it: with no theme chosen in the app, the app follows the system's
 * setting as it changes (spec §2), so the system setting is switched. Waits until the page has it and until the
 * colour transitions it started have ended, so what is measured next is the theme's colours, not a blend.
 */
export async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await page.waitForFunction(() => {
    // Runs in the browser; the e2e tsconfig has no DOM types, hence the narrow view of the document.
    const { document } = globalThis as unknown as {
      document: { getAnimations(): { constructor: { name: string }; playState: string }[] };
    };
    return document
      .getAnimations()
      .every((animation) => animation.constructor.name !== 'CSSTransition' || animation.playState !== 'running');
  });
}

/** What the walk found on the signed-in user's workspace, for the screens that need an id. */
export interface Workspace {
  session: Session;
  ruleId: string;
}

export interface Screen {
  /** File-name safe: `en-light-1366-<name>.png`, and the name the layout helper's lists use. */
  name: string;
  /** Opens the screen and waits until it shows its content, not a spinner. */
  open(page: Page, workspace: Workspace | null): Promise<void>;
}

/**
 * The loading statuses shown in `scope`: spinners (a status named by its label) and statuses that say so in words,
 * such as the Activity list's "Loading activity…".
 */
function loadingStatuses(scope: Page | Locator): Locator {
  return scope
    .locator('[role="status"][aria-label]')
    .or(scope.getByRole('status').filter({ hasText: /^\s*(Loading|กำลังโหลด)/ }))
    .filter({ visible: true });
}

/** Waits for the page's heading and for every loading status to be gone. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
  await expect(loadingStatuses(page)).toHaveCount(0, { timeout: 20_000 });
}

function route(name: string, path: string | ((workspace: Workspace | null) => string)): Screen {
  return {
    name,
    async open(page, workspace) {
      await page.goto(typeof path === 'string' ? path : path(workspace));
      await settled(page);
    },
  };
}

const ruleId = (workspace: Workspace | null): string => {
  if (!workspace) throw new Error('a rule screen needs the seeded workspace');
  return workspace.ruleId;
};

/** Screens a visitor sees signed out (the landing page, login and register send a signed-in user on). */
export const PUBLIC_SCREENS: readonly Screen[] = [
  route('landing', '/'),
  route('login', '/login'),
  route('register', '/register'),
  route('forgot-password', '/forgot-password'),
  route('reset-password', '/reset-password?token=walk-token'),
  route('terms', '/terms'),
  route('privacy', '/privacy'),
  {
    name: 'verify-email',
    async open(page) {
      // A made-up token: the page's refusal is what a stale link shows.
      await page.goto('/verify-email?token=walk-token');
      await expect(page.getByRole('alert')).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: 'invitation',
    async open(page) {
      await page.goto(await mailedInvitation(page.request));
      // Signed out, the offer ends with the ways to sign in or sign up.
      await expect(page.getByRole('link', { name: /^(Create account|สร้างบัญชี)$/ })).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: 'invitation-invalid',
    async open(page) {
      // Like verify-email: a made-up token shows the page's refusal.
      await page.goto('/invitations/accept?token=walk-token');
      await expect(page.getByRole('alert')).toBeVisible({ timeout: 20_000 });
    },
  },
];

/**
 * The path of a real invitation, as mailed: a fresh owner on Pro (the free plan's one seat is the owner's) invites a
 * fresh address to their personal workspace, and the link is read from the administrator's outbox, where the
 * embedded default keeps mails.
 */
export async function mailedInvitation(request: APIRequestContext): Promise<string> {
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const registered = await request.post('/api/auth/register', {
    data: { name: 'Somchai Jaidee', email: `walk-owner-${unique}@example.com`, password: 'Sandbox-Pass1' },
  });
  expect(registered.ok()).toBeTruthy();
  const headers = { authorization: `Bearer ${((await registered.json()) as { data: Session }).data.token}` };
  expect((await request.post('/api/subscription/upgrade', { headers, data: { planId: 'pro' } })).ok()).toBeTruthy();
  const listed = await request.get('/api/workspaces', { headers });
  const personal = ((await listed.json()) as { data: { id: string; personal: boolean }[] }).data.find(
    (workspace) => workspace.personal,
  );
  const email = `walk-invitee-${unique}@example.com`;
  const invited = await request.post(`/api/workspaces/${personal!.id}/invitations`, {
    headers,
    data: { email, role: 'editor' },
  });
  expect(invited.status()).toBe(201);
  return invitationPath(request, email);
}

/** The invitation link mailed to `email`, read from the administrator's outbox. */
export async function invitationPath(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/login', { data: E2E_ADMIN });
  const headers = { authorization: `Bearer ${((await login.json()) as { data: Session }).data.token}` };
  let path = '';
  await expect
    .poll(
      async () => {
        const outbox = await request.get('/api/admin/outbox?limit=200', { headers });
        const mails = ((await outbox.json()) as { data: { to: string; text: string }[] }).data;
        const mail = mails.find((item) => item.to === email);
        path = (mail && /\/invitations\/accept\?token=[\w-]+/.exec(mail.text)?.[0]) ?? '';
        return path;
      },
      { message: `the invitation mailed to ${email}` },
    )
    .not.toBe('');
  return path;
}

/** The AI Studio's five tabs, in their order on the page (ai-studio-page.tsx). */
export const AI_STUDIO_TABS = ['assistant', 'analysis', 'content', 'hacks', 'automation'] as const;

function aiStudioTab(tab: (typeof AI_STUDIO_TABS)[number], index: number): Screen {
  return {
    name: `ai-studio-${tab}`,
    async open(page) {
      if (!page.url().endsWith('/ai-studio')) {
        await page.goto('/ai-studio');
        await settled(page);
      }
      const button = page.getByRole('tab').nth(index);
      await button.click();
      await expect(button).toHaveAttribute('aria-selected', 'true');
      await settled(page);
    },
  };
}

/**
 * The assistant's grounded answer (issue 29): the wasted-spend question asked in the page's language, answered by the
 * built-in analyst from the sandbox's figures, with the cited entities and their figures under it. Ads over 30 days:
 * a sandbox world's campaigns over a week may have nothing wasted, its ads over a month do (e2e/ai-suggestions.spec.ts).
 */
const aiStudioAnswer: Screen = {
  name: 'ai-studio-answer',
  async open(page) {
    await page.goto('/ai-studio');
    await settled(page);
    const thai = (await page.locator('html').getAttribute('lang'))?.startsWith('th');
    const question = page.getByLabel(/^(Your question|คำถามของคุณ)$/);
    await question.fill(
      thai
        ? 'ชิ้นโฆษณาไหนเสียเงินเปล่ามากที่สุดใน 30 วันที่ผ่านมา'
        : 'Which of my ads is wasting the most money in the last 30 days?',
    );
    await page.getByRole('button', { name: /^(Get AI Advice|รับคำแนะนำจาก AI)$/ }).click();
    await expect(question).toHaveValue('', { timeout: 20_000 });
    await expect(page.getByTestId('ai-response')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('ai-citations').getByRole('link').first()).toBeVisible({ timeout: 20_000 });
    await settled(page);
  },
};

/** Screens of the signed-in shell, with the workspace's data in them. */
export const SIGNED_IN_SCREENS: readonly Screen[] = [
  {
    name: 'dashboard',
    async open(page) {
      await page.goto('/dashboard');
      await settled(page);
      // The 30-day chart of the connected sandbox account is drawn, not its empty or loading state.
      const chart = page.getByRole('img', { name: /^(Spend and results per day|ค่าใช้จ่ายและผลลัพธ์รายวัน)/ });
      await expect(chart.locator('.recharts-surface').first()).toBeVisible({ timeout: 20_000 });
    },
  },
  route('ad-accounts', '/ad-accounts'),
  {
    name: 'campaigns',
    async open(page) {
      await page.goto('/campaigns');
      await settled(page);
      // The connected sandbox's campaigns with their figures: the table's rows, or a phone's cards.
      await expect(page.getByRole('rowheader').or(page.getByRole('article')).first()).toBeVisible({ timeout: 20_000 });
      await settled(page);
    },
  },
  {
    name: 'campaign-entity',
    async open(page) {
      if (!page.url().endsWith('/campaigns')) {
        await page.goto('/campaigns');
        await settled(page);
      }
      // The ad set that spent most, opened from the table: its breadcrumbs, daily chart and history.
      await page.getByRole('combobox', { name: /^(Show|แสดง)$/ }).selectOption('adset');
      // The ad sets' list, not a campaign's row still on its way out: the address says the level, then the list loads.
      await expect(page).toHaveURL(/[?&]level=adset\b/);
      await settled(page);
      const first = page.getByRole('rowheader').or(page.getByRole('article')).first().getByRole('link').first();
      await expect(first).toBeVisible({ timeout: 20_000 });
      await first.click();
      await expect(page.getByRole('navigation', { name: /^(Where it sits|ตำแหน่ง)$/ })).toBeVisible({ timeout: 20_000 });
      await settled(page);
      await expect(page.getByTestId('entity-chart').locator('.recharts-surface').first()).toBeVisible({
        timeout: 20_000,
      });
    },
  },
  route('rules', '/rules'),
  route('rule-new', '/rules/new'),
  {
    name: 'rule-new-blank',
    async open(page) {
      await page.goto('/rules/new');
      await settled(page);
      // The builder's form, as "Blank rule" opens it (where the page starts on its template choice).
      const blank = page.getByRole('button', { name: /^(Blank rule|กฎเปล่า)/ });
      if (await blank.isVisible()) await blank.click();
      await expect(page.getByRole('combobox').first()).toBeVisible();
      await settled(page);
    },
  },
  route('rule-detail', (workspace) => `/rules/${ruleId(workspace)}`),
  route('rule-edit', (workspace) => `/rules/${ruleId(workspace)}/edit`),
  route('inbox', '/inbox'),
  route('activity', '/activity'),
  {
    name: 'reports',
    async open(page) {
      await page.goto('/reports');
      await settled(page);
      // The seeded schedule is listed with its last report.
      await expect(
        page.getByRole('article', { name: /^(Weekly report in English|รายงานรายสัปดาห์ ภาษาอังกฤษ)$/ }),
      ).toBeVisible();
    },
  },
  {
    name: 'report-schedule-new',
    async open(page) {
      if (!page.url().endsWith('/reports')) {
        await page.goto('/reports');
        await settled(page);
      }
      await page.getByRole('button', { name: /^(New schedule|สร้างกำหนดการ)$/ }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      // The workspace's members are listed to tick.
      await expect(dialog.getByRole('checkbox').first()).toBeVisible({ timeout: 20_000 });
      await expect(loadingStatuses(dialog)).toHaveCount(0, { timeout: 20_000 });
    },
  },
  ...AI_STUDIO_TABS.map(aiStudioTab),
  aiStudioAnswer,
  route('subscription', '/subscription'),
  route('members', '/members'),
  route('settings', '/settings'),
  route('agents', '/settings/api-tokens'),
  {
    name: 'agents-token-created',
    async open(page) {
      await page.goto('/settings/api-tokens');
      await settled(page);
      await page.getByRole('button', { name: /^(New API token|โทเค็น API ใหม่)$/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox').first().fill('Cursor on the office Mac');
      await dialog.getByRole('button', { name: /^(Create token|สร้างโทเค็น)$/ }).click();
      await expect(page.getByTestId('created-token')).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: 'oauth-consent',
    async open(page) {
      // An AI client registered a moment ago asks for access, as a connector would.
      const registered = await page.request.post('/oauth/register', {
        data: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] },
      });
      const { client_id: clientId } = (await registered.json()) as { client_id: string };
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: 'https://claude.ai/api/mcp/auth_callback',
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        scope: 'read propose write',
        state: 'walk',
      });
      await page.goto(`/oauth/authorize?${query}`);
      await settled(page);
      await expect(page.getByRole('button', { name: /^(Allow|อนุญาต)$/ })).toBeVisible();
    },
  },
  route('test', '/test'),
  {
    name: 'notifications',
    async open(page) {
      await page.goto('/reports');
      await settled(page);
      // On a narrow screen the sidebar, which holds the button, is behind the menu button.
      const menu = page.getByRole('button', { name: /^(Open menu|เปิดเมนู)$/ });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('button', { name: /^(Notifications|การแจ้งเตือน)$/ }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(loadingStatuses(dialog)).toHaveCount(0, { timeout: 20_000 });
    },
  },
];

/** The instance settings as the administrator sees them (a user sees the admin-only notice on `settings`). */
export const ADMIN_SCREENS: readonly Screen[] = [
  route('settings-admin', '/settings'),
  {
    name: 'settings-outbox',
    async open(page) {
      await page.goto('/settings');
      await settled(page);
      await page
        .getByRole('navigation')
        .getByRole('button', { name: /^(Mail outbox|กล่องจดหมายขาออก)$/ })
        .click();
      await expect(page.getByRole('heading', { name: /^(Mail outbox|กล่องจดหมายขาออก)$/, level: 2 })).toBeVisible();
      await settled(page);
    },
  },
];

/**
 * A fresh user with data on every screen: the sandbox's ad accounts connected through the consent screen (`atConsent`
 * runs there), a rule from a template switched on and run once to its end, two notes in the activity log, and a
 * weekly report scheduled for the user and a client and sent once (its PDF waits in the administrator's outbox).
 */
export async function seedWorkspace(
  page: Page,
  request: APIRequestContext,
  atConsent?: (page: Page) => Promise<void>,
): Promise<Workspace> {
  const session = await signInFreshUser(page, request, 'walk');
  const headers = { authorization: `Bearer ${session.token}` };
  await connectSandbox(page, atConsent);

  const templates = await request.get('/api/rules/templates', { headers });
  const template = ((await templates.json()) as { data: RuleTemplate[] }).data.find(
    (item) => item.id === 'scale_winners_roas',
  );
  expect(template, 'the scale-winners template').toBeDefined();
  const created = await request.post('/api/rules', {
    headers,
    // Acting on its own (the template asks first): each workspace has its own sandbox world, so its budget writes
    // take none of the changes an hour Meta allows an ad set from another test, and every screen shows what a rule did.
    data: {
      ...winnersEveryDay(template!.rule),
      mode: 'auto',
      name: template!.name.en,
      isActive: true,
    },
  });
  expect(created.status()).toBe(201);
  const rule = ((await created.json()) as { data: Rule }).data;
  expect((await request.post(`/api/rules/${rule.id}/run`, { headers })).ok()).toBeTruthy();
  await expect
    .poll(
      async () => {
        const runs = await request.get(`/api/rules/${rule.id}/runs`, { headers });
        const list = ((await runs.json()) as { data: { status: string }[] }).data;
        return list[0]?.status ?? 'none';
      },
      { timeout: 60_000, message: 'the seeded run finishes' },
    )
    .toMatch(/^(completed|failed)$/);
  for (const description of ['Weekly budget review done', 'Paused the summer campaign by hand']) {
    expect((await request.post('/api/logs', { headers, data: { description } })).status()).toBe(201);
  }
  const schedule = await request.post('/api/reports/schedules', {
    headers,
    data: {
      frequency: 'weekly',
      language: 'en',
      recipients: [session.user.email, 'somchai.client@example.com'],
    },
  });
  expect(schedule.status()).toBe(201);
  const { id: scheduleId } = ((await schedule.json()) as { data: { id: string } }).data;
  const sent = await request.post(`/api/reports/schedules/${scheduleId}/send`, { headers });
  expect(sent.ok()).toBeTruthy();
  // An AI agent's token that read the rules once: the agents page lists it, the activity log shows its call.
  await seedAgent(request, headers);
  return { session, ruleId: rule.id };
}

/**
 * Every screen in order, each handed to `visit` with the workspace it shows: the public ones signed out, then the
 * shell signed in as the workspace's user, then the administrator's (the accessibility walk and the screenshot tour).
 */
export async function visitEveryScreen(
  page: Page,
  request: APIRequestContext,
  workspace: Workspace,
  visit: (screens: readonly Screen[], workspace: Workspace | null) => Promise<void>,
): Promise<void> {
  await visit(PUBLIC_SCREENS, null);
  await storeSession(page, workspace.session);
  await visit(SIGNED_IN_SCREENS, workspace);
  await switchToAdmin(page, request);
  await visit(ADMIN_SCREENS, workspace);
}

/** Who a run of screens is shown to: signed out, the seeded workspace's user, the instance administrator. */
type Viewer = 'visitor' | 'user' | 'admin';

/** A part of the walk: runs of screens in walk order, each shown to its viewer. */
export interface WalkPart {
  name: string;
  runs: readonly { viewer: Viewer; screens: readonly Screen[] }[];
}

/** Where the signed-in screens are cut in two: after the report schedule's dialog, before the AI studio. */
const SIGNED_IN_CUT = SIGNED_IN_SCREENS.findIndex((screen) => screen.name.startsWith('ai-studio-'));

/**
 * The walk of `visitEveryScreen` in three parts of about a dozen screens each, so the accessibility walk's tests can
 * run on several workers at once (ADR 0199). Together they are every screen once, in walk order (checked below).
 */
export const WALK_PARTS: readonly WalkPart[] = [
  {
    name: 'public and admin screens',
    runs: [
      { viewer: 'visitor', screens: PUBLIC_SCREENS },
      { viewer: 'admin', screens: ADMIN_SCREENS },
    ],
  },
  { name: 'signed-in screens 1-2', runs: [{ viewer: 'user', screens: SIGNED_IN_SCREENS.slice(0, SIGNED_IN_CUT) }] },
  { name: 'signed-in screens 2-2', runs: [{ viewer: 'user', screens: SIGNED_IN_SCREENS.slice(SIGNED_IN_CUT) }] },
];
{
  const walked = WALK_PARTS.flatMap((part) => part.runs.flatMap((run) => run.screens.map((screen) => screen.name)));
  const every = [...PUBLIC_SCREENS, ...SIGNED_IN_SCREENS, ...ADMIN_SCREENS].map((screen) => screen.name);
  if (SIGNED_IN_CUT <= 0 || [...walked].sort().join() !== [...every].sort().join()) {
    throw new Error(`the walk's parts are not every screen once: ${walked.join(', ')}`);
  }
}

/** One part of the walk on a fresh page: each run's screens handed to `visit`, shown to the run's viewer. */
export async function visitPart(
  page: Page,
  request: APIRequestContext,
  workspace: Workspace,
  part: WalkPart,
  visit: (screens: readonly Screen[], workspace: Workspace | null) => Promise<void>,
): Promise<void> {
  for (const { viewer, screens } of part.runs) {
    if (viewer === 'user') await storeSession(page, workspace.session);
    if (viewer === 'admin') await switchToAdmin(page, request);
    await visit(screens, viewer === 'visitor' ? null : workspace);
  }
}

/** Signs the page's context in as the instance administrator (registered by scripts/e2e-server.mjs). */
export async function switchToAdmin(page: Page, request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(response.ok()).toBeTruthy();
  await storeSession(page, ((await response.json()) as { data: Session }).data);
}

/**
 * The scale-winners template with its ROAS threshold at 0: the sandbox's delivery moves with the calendar, and on
 * some days no ad set has a 3-day ROAS over 4, while one over 0 with the template's minimum spend exists every day,
 * so the seeded run always applies changes for the pages to show.
 */
export function winnersEveryDay<T>(rule: T): T {
  const body = structuredClone(rule) as { conditions: { items: { metric?: string; value?: unknown }[] } };
  const roas = body.conditions.items.find((item) => item.metric === 'roas');
  if (roas) roas.value = 0;
  return body as T;
}

/** An API token made for an AI agent, which called one tool over MCP (its entry in the log is signed by it). */
async function seedAgent(request: APIRequestContext, headers: { authorization: string }): Promise<void> {
  const minted = await request.post('/api/tokens', {
    headers,
    data: { name: 'Claude Desktop', scopes: ['propose'], expiresInDays: 90 },
  });
  expect(minted.status()).toBe(201);
  const { token } = ((await minted.json()) as { data: { token: string } }).data;
  const mcp = { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' };
  const opened = await request.post('/mcp', {
    headers: mcp,
    data: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'walk', version: '1' } },
    },
  });
  expect(opened.ok()).toBeTruthy();
  const session = {
    ...mcp,
    'mcp-session-id': opened.headers()['mcp-session-id'] ?? '',
    'mcp-protocol-version': '2025-11-25',
  };
  await request.post('/mcp', { headers: session, data: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  const called = await request.post('/mcp', {
    headers: session,
    data: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_rules', arguments: {} } },
  });
  expect(called.ok()).toBeTruthy();
}
