import type { Rule, RuleTemplate, Session } from '@adpilot/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

/*
 * A phone (390×844) is a first-class layout (ADR 0059): in English and in Thai no page scrolls sideways, Activity
 * entries show their whole description, and all five AI Studio tabs can be reached.
 */
test.use({ viewport: { width: 390, height: 844 } });

const LANGUAGES = ['en', 'th'] as const;
type Language = (typeof LANGUAGES)[number];

const WORDS = {
  en: {
    entries: 'Activity entries',
    tabs: 'AI Studio tools',
    range: 'Last 30 days',
    totals: 'Totals for the chosen range',
    schedule: 'Monthly report in Thai',
  },
  th: {
    entries: 'รายการกิจกรรม',
    tabs: 'เครื่องมือ AI Studio',
    range: '30 วันล่าสุด',
    totals: 'ยอดรวมของช่วงเวลาที่เลือก',
    schedule: 'รายงานรายเดือน ภาษาไทย',
  },
} as const;

// A long note with one unbroken word, the kind that pushes a layout sideways.
const LONG_NOTE =
  'Budget review for the Songkran campaign: https://example.com/campaigns/songkran-2026/very-long-tracking-path ' +
  'and ad set “ลูกค้าเก่า กรุงเทพ” checked after the weekend';

/** The page's width beyond the window: 0 when nothing scrolls sideways. */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    // The e2e tsconfig has no DOM types, hence the narrow view of the window.
    const view = globalThis as unknown as {
      innerWidth: number;
      document: { documentElement: { scrollWidth: number } };
    };
    return view.document.documentElement.scrollWidth - view.innerWidth;
  });
}

/** Opens a page, waits until its heading and content are in, and checks it does not scroll sideways. */
async function expectFits(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
  // No spinner left: the page's content, not its loading state, is what must fit.
  await expect(page.locator('.animate-spin'), path).toHaveCount(0, { timeout: 15_000 });
  expect(await sidewaysOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function makeRule(request: APIRequestContext, session: Session): Promise<Rule> {
  const headers = { authorization: `Bearer ${session.token}` };
  const templates = await request.get('/api/rules/templates', { headers });
  const template = ((await templates.json()) as { data: RuleTemplate[] }).data[0]!;
  const created = await request.post('/api/rules', {
    headers,
    data: { ...template.rule, name: 'Phone layout rule', isActive: false },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { data: Rule }).data;
}

for (const language of LANGUAGES) {
  test(`every page fits a 390 px phone in ${language === 'en' ? 'English' : 'Thai'}`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const session = await signInFreshUser(page, request, `mobile-${language}`);
    await connectSandbox(page);
    const note = await request.post('/api/logs', {
      headers: { authorization: `Bearer ${session.token}` },
      data: { description: LONG_NOTE },
    });
    expect(note.status()).toBe(201);
    const rule = await makeRule(request, session);
    // A scheduled report to a long outside address, the kind that pushes a list sideways.
    const schedule = await request.post('/api/reports/schedules', {
      headers: { authorization: `Bearer ${session.token}` },
      data: {
        frequency: 'monthly',
        language: 'th',
        recipients: [session.user.email, 'marketing.reports.for.the.songkran.campaign@client-company.example.com'],
      },
    });
    expect(schedule.status()).toBe(201);
    await chooseLanguage(page, language);

    for (const path of [
      '/dashboard',
      '/ad-accounts',
      '/rules',
      '/rules/new',
      `/rules/${rule.id}`,
      `/rules/${rule.id}/edit`,
      '/inbox',
      '/reports',
      '/subscription',
      '/settings',
      '/test',
    ])
      await expectFits(page, path);

    // Activity: each entry is a card that shows its whole description inside the screen.
    await expectFits(page, '/activity');
    const entries = page.getByRole('list', { name: WORDS[language].entries });
    const card = entries.getByRole('listitem').filter({ hasText: LONG_NOTE });
    await expect(card).toBeVisible();
    await expect(card).toContainText(LONG_NOTE);
    const box = await card.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);

    // Reports: the range buttons keep their words on one line inside the screen.
    await expectFits(page, '/reports');
    const preset = page.getByRole('button', { name: WORDS[language].range });
    const presetBox = await preset.boundingBox();
    expect(presetBox!.height).toBeLessThanOrEqual(34);
    expect(await preset.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    // …and each series shows all four figures, the last (ROAS) inside the screen, not past a cut-off column.
    const series = page.getByRole('list', { name: WORDS[language].totals }).getByRole('listitem').first();
    await expect(series.locator('dd')).toHaveCount(4);
    const roas = await series.locator('dd').last().boundingBox();
    expect(roas!.x + roas!.width).toBeLessThanOrEqual(390);
    // …and a scheduled report shows its recipients and its buttons inside the screen.
    const scheduled = page.getByRole('article', { name: WORDS[language].schedule });
    await expect(scheduled).toContainText('songkran.campaign@client-company.example.com');
    for (const part of [scheduled, scheduled.getByRole('button').last()]) {
      const box = await part.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }

    // AI Studio: the tab list says more tabs exist, and every one of the five can be reached.
    await expectFits(page, '/ai-studio');
    const tablist = page.getByRole('tablist', { name: WORDS[language].tabs });
    const tabs = tablist.getByRole('tab');
    await expect(tabs).toHaveCount(5);
    await expect(page.getByTestId('tabs-more-after')).toBeVisible();
    await tabs.first().focus();
    for (let index = 0; index < 5; index += 1) {
      const tab = tabs.nth(index);
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await expect(tab).toBeInViewport({ ratio: 0.99 });
      // Clear of the faded edges: what is under the tab's middle is the tab itself, not an arrow.
      await expect.poll(() => tab.evaluate(isOnTop)).toBe(true);
      await expect(page.getByRole('tabpanel')).toBeVisible();
      if (index < 4) await page.keyboard.press('ArrowRight');
    }
    await expect(page.getByTestId('tabs-more-before')).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
}

test('the public pages fit a 390 px phone in English and Thai', async ({ page }) => {
  for (const language of LANGUAGES) {
    await page.goto('/login');
    await chooseLanguage(page, language);
    for (const path of ['/', '/login', '/register', '/forgot-password', '/terms', '/privacy', '/test'])
      await expectFits(page, path);
  }
});

/** Whether an element is what a tap on its middle would reach. */
function isOnTop(element: unknown): boolean {
  const target = element as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } };
  const box = target.getBoundingClientRect();
  const view = globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } };
  const hit = view.document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) as {
    closest?(s: string): unknown;
  } | null;
  return hit?.closest?.('[role="tab"]') === element;
}

/** Stores the language the way the language menu does, so every page opened next is in it. */
async function chooseLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate((chosen) => {
    const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
      .localStorage;
    storage.setItem('language', chosen);
  }, language);
}
