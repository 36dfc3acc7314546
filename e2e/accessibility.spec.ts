import { expect, test as base, type Page, type TestInfo } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { expectLayout } from './layout.ts';
import { openSandboxConsent, signInFreshUser } from './session.ts';
import {
  chooseLanguage,
  LANGUAGES,
  seedWorkspace,
  showTheme,
  type Theme,
  THEMES,
  visitPart,
  WALK_PARTS,
  WIDTHS,
  type Workspace,
} from './walk.ts';

/*
 * Every screen × language × theme × width passes axe and the layout checks (ADR 0060). One test per language, width
 * and part of the walk (ADR 0199: three parts, so the workers share the walk) shows each of its screens once and
 * checks it in both themes without reloading it: the theme follows the system setting, which the walk switches the
 * way an operating system would (ADR 0069). The language is chosen before the app starts, as the menu leaves it for
 * the next visit, so each screen is shown the way it first renders in it.
 */

// The seeded user only looks: one workspace per worker serves every walk the worker runs.
const test = base.extend<object, { workspace: Workspace }>({
  workspace: [
    async ({ browser, playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      const context = await browser.newContext();
      const workspace = await seedWorkspace(await context.newPage(), request);
      await context.close();
      await use(workspace);
      await request.dispose();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

async function check(page: Page, screen: string, label: string, testInfo: TestInfo): Promise<void> {
  expect.soft(await axeViolations(page, label), `axe on ${label}`).toEqual([]);
  await expectLayout(page, screen, testInfo, label);
}

// The walks are independent tests: let the workers share them.
test.describe.configure({ mode: 'parallel' });

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    for (const part of WALK_PARTS) {
      test(`${part.name} pass axe and the layout checks: ${language}-${width.name}, light and dark`, async ({
        browser,
        request,
        workspace,
      }, testInfo) => {
        test.setTimeout(240_000);
        const context = await browser.newContext({ viewport: width.viewport, colorScheme: 'light' });
        await chooseLanguage(context, language);
        const page = await context.newPage();
        let theme: Theme = 'light';
        await visitPart(page, request, workspace, part, async (screens, shown) => {
          for (const screen of screens) {
            await test.step(screen.name, async () => {
              await screen.open(page, shown);
              // The theme it opened in, then the other: one switch per screen.
              for (const next of theme === 'light' ? THEMES : [...THEMES].reverse()) {
                await showTheme(page, next);
                theme = next;
                await check(page, screen.name, `${screen.name} (${language}, ${next}, ${width.name})`, testInfo);
              }
            });
          }
        });
        // The language the walk asked for is the one it checked.
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await context.close();
      });
    }
  }
}

// The sandbox's consent screen has one language and one theme: it is checked at each width.
test('the sandbox consent screen passes axe and the layout checks at each width', async ({
  page,
  request,
}, testInfo) => {
  await signInFreshUser(page, request, 'consent');
  await openSandboxConsent(page);
  for (const width of WIDTHS) {
    await page.setViewportSize(width.viewport);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
    await check(page, 'sandbox-consent', `sandbox-consent (${width.name})`, testInfo);
  }
});
