import { formatMoney, PLAN_TABLE, type AdAccount, type Proposal } from '@adpilot/contracts';
import { expect, test, type Page } from '@playwright/test';

/*
 * A new user's first week as a person sees it (issue 33): the landing with its plans, sign-up through the form, the
 * sandbox connected, a first rule from a template whose amounts are in the account's currency, a first run that says
 * what it did with the way to the Inbox, and the Inbox's proposals in that currency. One language throughout, the
 * browser's, at a laptop's and a phone's width.
 */

const WORDS = {
  en: {
    locale: 'en-US',
    startTrial: 'Start Free Trial',
    plans: 'Plans',
    perMonthBaht: (price: string) => `or ${price}/month`,
    name: 'Full name',
    email: 'Email',
    password: 'Password',
    confirm: 'Confirm password',
    createAccount: 'Create Account',
    welcome: (name: string) => `Welcome, ${name}!`,
    welcomeBack: 'Welcome back',
    adAccounts: 'Ad Accounts',
    connect: 'Connect Account',
    connectDialog: 'Connect Facebook Ad Account',
    continue: 'Continue to Facebook',
    connected: /^Successfully connected 1 ad account!$/,
    syncNow: 'Sync now',
    rules: 'Automation Rules',
    newRule: 'Create New Rule',
    template: 'Scale winners on ROAS',
    amountsIn: (currency: string) => `Amounts in ${currency}, as your account bills`,
    condition: 'Condition 1',
    metric: 'Metric',
    value: 'Value',
    askFirst: /Ask me first/,
    create: 'Create rule',
    runNow: 'Run now',
    waiting: /(\d+) changes? waits? for your approval/,
    openInbox: 'Open the Inbox',
    inbox: 'Inbox',
    stats: ['Active Rules', 'Ad Accounts', 'Actions Today', 'Total Actions'],
    approve: 'Approve',
    approveAndApply: 'Approve and apply',
    approved: 'Approved: the change was sent to Meta',
    backtestLimit: (days: number) => `Your Free plan backtests up to ${days} days`,
    runBacktest: 'Run backtest',
    backtestTotals: /^Changes: [\d,]+ · Entities affected: [\d,]+$/,
  },
  th: {
    locale: 'th-TH',
    startTrial: 'ทดลองใช้ฟรี',
    plans: 'แผนการใช้งาน',
    perMonthBaht: (price: string) => `หรือ ${price}/เดือน`,
    name: 'ชื่อ-นามสกุล',
    email: 'อีเมล',
    password: 'รหัสผ่าน',
    confirm: 'ยืนยันรหัสผ่าน',
    createAccount: 'สร้างบัญชี',
    welcome: (name: string) => `ยินดีต้อนรับ ${name}!`,
    welcomeBack: 'ยินดีต้อนรับกลับ',
    adAccounts: 'บัญชีโฆษณา',
    connect: 'เชื่อมต่อบัญชี',
    connectDialog: 'เชื่อมต่อบัญชีโฆษณา Facebook',
    continue: 'ไปที่ Facebook',
    connected: /^เชื่อมต่อบัญชีโฆษณาสำเร็จ 1 บัญชี!$/,
    syncNow: 'ซิงค์ตอนนี้',
    rules: 'กฎอัตโนมัติ',
    newRule: 'สร้างกฎใหม่',
    template: 'เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี',
    amountsIn: (currency: string) => `จำนวนเงินเป็น ${currency} ตามสกุลเงินที่บัญชีของคุณใช้`,
    condition: 'เงื่อนไขที่ 1',
    metric: 'ตัวชี้วัด',
    value: 'ค่า',
    askFirst: /ถามฉันก่อน/,
    create: 'สร้างกฎ',
    runNow: 'เรียกใช้ตอนนี้',
    waiting: /(\d+) รายการรอการอนุมัติจากคุณ/,
    openInbox: 'เปิดกล่องอนุมัติ',
    inbox: 'กล่องอนุมัติ',
    stats: ['กฎที่เปิดใช้งาน', 'บัญชีโฆษณา', 'การดำเนินการวันนี้', 'การดำเนินการทั้งหมด'],
    approve: 'อนุมัติ',
    approveAndApply: 'อนุมัติและดำเนินการ',
    approved: 'อนุมัติแล้ว: ส่งการเปลี่ยนแปลงไปยัง Meta แล้ว',
    backtestLimit: (days: number) => `แผน Free ของคุณทดสอบย้อนหลังได้สูงสุด ${days} วัน`,
    runBacktest: 'ทดสอบย้อนหลัง',
    backtestTotals: /^การเปลี่ยนแปลง: [\d,]+ · รายการที่ได้รับผล: [\d,]+$/,
  },
} as const;

type Language = keyof typeof WORDS;

/** Words of the app's own English that must never show on a Thai page (entity names come from the sandbox). */
const ENGLISH_UI =
  /\b(Dashboard|Rules|Run now|Preview|Approve|Inbox|Welcome|Create|Cancel|Connect|Sync now|Settings)\b/;
// Thai letters, not the baht sign (U+0E3F), which English writes too.
const THAI = /[\u0E01-\u0E3A\u0E40-\u0E5B]/;

// Intl writes no-break spaces; Playwright's text matchers see plain ones.
const plain = (text: string) => text.replace(/\s/g, ' ');

/** The page is in one language: the document says so, and its content has none of the other's words. */
async function expectOneLanguage(page: Page, language: Language, where: string): Promise<void> {
  await expect(page.locator('html'), where).toHaveAttribute('lang', language);
  const content = await page.locator('main').first().innerText();
  if (language === 'en') expect(content, `${where}: no Thai on an English page`).not.toMatch(THAI);
  else {
    expect(content, `${where}: Thai text`).toMatch(THAI);
    expect(content, `${where}: no English interface words on a Thai page`).not.toMatch(ENGLISH_UI);
  }
}

async function bearer(page: Page): Promise<{ authorization: string }> {
  const token = await page.evaluate(
    () =>
      (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(
        'token',
      ) ?? '',
  );
  return { authorization: `Bearer ${token}` };
}

for (const language of ['th', 'en'] as const) {
  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test.describe(`${language} at ${viewport.width} px`, () => {
      const words = WORDS[language];
      test.use({ locale: words.locale, viewport });

      test('a first week: sign up, connect, a first rule, a first run that says what it did', async ({ page }) => {
        test.setTimeout(150_000);
        // The landing, in the browser's language, sells with the plans of the plan table.
        await page.goto('/');
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        const plans = page.getByRole('region', { name: words.plans });
        const pro = PLAN_TABLE.find((plan) => plan.id === 'pro')!;
        await expect(plans.getByRole('listitem', { name: 'Pro' }).getByTestId('price-thb-pro')).toHaveText(
          words.perMonthBaht(plain(formatMoney(pro.prices.THB, 'THB', language))),
        );
        await expectOneLanguage(page, language, 'landing');
        await page.getByRole('link', { name: words.startTrial }).click();
        await expect(page).toHaveURL('/register');

        // Sign-up through the form; the dashboard greets a newcomer, not a returning user.
        const name = language === 'th' ? 'ร้านสยาม' : 'Brooklyn Shop';
        const email = `first-week-${language}-${viewport.width}-${Date.now()}@example.com`;
        await page.getByLabel(words.name).fill(name);
        await page.getByLabel(words.email).fill(email);
        await page.getByLabel(words.password, { exact: true }).fill('First-Week-Pass1');
        await page.getByLabel(words.confirm).fill('First-Week-Pass1');
        await page.getByRole('checkbox').check();
        await page.getByRole('button', { name: words.createAccount }).click();
        await expect(page).toHaveURL('/dashboard');
        await expect(page.getByRole('heading', { level: 1, name: words.welcome(name) })).toBeVisible();
        await expect(page.getByText(words.welcomeBack)).toHaveCount(0);
        await expectOneLanguage(page, language, 'dashboard');
        // The four stat cards: two to a row on a phone, one row of four on a laptop, never one per row. Measured
        // together in one frame (the page settles as its figures land), so a scroll between two reads cannot lie.
        const statTops = () =>
          page.evaluate(
            (labels) => {
              type Box = { top: number };
              type Node = { textContent: string | null; parentElement: Node | null; getBoundingClientRect(): Box };
              const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<Node> } })
                .document;
              const paragraphs = [...doc.querySelectorAll('main section p')];
              return labels.map((label) => {
                const card = paragraphs.find((p) => p.textContent === label)?.parentElement?.parentElement;
                return card ? Math.round(card.getBoundingClientRect().top) : -1;
              });
            },
            words.stats as unknown as string[],
          );
        const layout = (tops: number[]) => {
          const [a, b, c, d] = tops;
          if (tops.includes(-1)) return 'missing';
          if (a === b && b === c && c === d) return 'one row';
          return a === b && c === d && a! < c! ? 'two rows' : `other ${tops.join(',')}`;
        };
        await expect.poll(async () => layout(await statTops())).toBe(viewport.width < 640 ? 'two rows' : 'one row');

        // The sandbox, connected from the Ad Accounts page: the Free plan's one account.
        await page.goto('/ad-accounts');
        await expect(page.getByRole('heading', { level: 1, name: words.adAccounts })).toBeVisible();
        await page.getByRole('button', { name: words.connect }).first().click();
        await page
          .getByRole('dialog', { name: words.connectDialog })
          .getByRole('button', { name: words.continue })
          .click();
        await expect(page).toHaveURL(/\/sandbox\/meta\/[^/]+\/dialog\/oauth/);
        await page.getByRole('button', { name: 'Allow' }).click();
        await expect(page.getByText(words.connected)).toBeVisible();
        for (const button of await page.getByRole('button', { name: words.syncNow }).all()) {
          await expect(button).toBeEnabled({ timeout: 30_000 });
        }
        await expectOneLanguage(page, language, 'ad accounts');
        const [account] = await (
          await page.request.get('/api/ad-accounts', { headers: await bearer(page) })
        )
          .json()
          .then((body: { data: AdAccount[] }) => body.data);
        expect(account, 'one connected account').toBeDefined();
        const currency = account!.currency;

        // A first rule from a template, its amounts in the account's currency, asking first.
        await page.goto('/rules');
        await expect(page.getByRole('heading', { level: 1, name: words.rules })).toBeVisible();
        await expectOneLanguage(page, language, 'rules');
        await page.getByRole('link', { name: words.newRule }).click();
        await expect(page.getByText(words.amountsIn(currency), { exact: false })).toBeVisible();
        await page.getByRole('button', { name: new RegExp(words.template) }).click();
        // Any ROAS over 0 is a winner every day, whatever the sandbox's calendar (as in rules.spec.ts).
        const roas = page.getByRole('group', { name: words.condition });
        await roas.getByLabel(words.value, { exact: true }).fill('0');
        await expect(page.getByRole('radio', { name: words.askFirst })).toBeChecked();
        await expectOneLanguage(page, language, 'rule builder');
        await page.getByRole('button', { name: words.create, exact: true }).click();
        await expect(page).toHaveURL(/\/rules\/[0-9a-f-]{36}$/);
        await expect(page.getByRole('heading', { level: 1, name: words.template })).toBeVisible();

        // The backtest offers what the Free plan holds, says so, and is not refused.
        const freeDays = PLAN_TABLE.find((plan) => plan.id === 'free')!.limits.backtestDays;
        await expect(page.getByTestId('backtest-plan-limit')).toContainText(words.backtestLimit(freeDays));
        await page.getByRole('button', { name: words.runBacktest, exact: true }).click();
        await expect(page.getByText(words.backtestTotals)).toBeVisible({ timeout: 30_000 });

        // The first run says what it did, in words, with the way to the Inbox.
        await page.getByRole('button', { name: words.runNow, exact: true }).click();
        await page.getByRole('dialog').getByRole('button', { name: words.runNow }).click();
        const outcome = page.getByRole('status').filter({ hasText: words.waiting });
        await expect(outcome).toBeVisible({ timeout: 60_000 });
        const waiting = Number(words.waiting.exec((await outcome.textContent()) ?? '')?.[1]);
        expect(waiting).toBeGreaterThan(0);
        await expectOneLanguage(page, language, 'rule page');
        await outcome.getByRole('link', { name: words.openInbox }).click();
        await expect(page).toHaveURL('/inbox');
        await expect(page.getByRole('heading', { level: 1, name: words.inbox })).toBeVisible();

        // Each proposal names its budget from → to in the account's currency, as the reader writes money.
        const proposals = await (
          await page.request.get('/api/proposals', { headers: await bearer(page) })
        )
          .json()
          .then((body: { data: Proposal[] }) => body.data);
        expect(proposals).toHaveLength(waiting);
        const first = proposals[0]!;
        const group = page.getByRole('region', { name: words.template });
        const change = `${plain(formatMoney(Number(first.from), currency, language))} → ${plain(formatMoney(Number(first.to), currency, language))}`;
        await expect(group.getByText(change, { exact: false }).first()).toBeVisible();
        await expectOneLanguage(page, language, 'inbox');

        // Approving one: its toast never covers the next proposal's Approve, which still takes the click.
        expect(waiting, 'two proposals or more, to see the toast beside the next row').toBeGreaterThan(1);
        const approveButtons = group.getByRole('button', { name: words.approve, exact: true });
        await approveButtons.first().click();
        await page.getByRole('dialog').getByRole('button', { name: words.approveAndApply }).click();
        await expect(page.getByText(words.approved)).toBeVisible({ timeout: 20_000 });
        await expect(approveButtons).toHaveCount(waiting - 1);
        await approveButtons.first().click({ trial: true, timeout: 2_000 });

        // Back on the rule, its run history says the same change in the same currency.
        await page.goBack();
        await expect(page.getByRole('heading', { level: 1, name: words.template })).toBeVisible();
        await expect(page.getByRole('group').filter({ hasText: change }).first()).toBeVisible();
        await expectOneLanguage(page, language, 'rule page, after the run');
      });
    });
  }
}
