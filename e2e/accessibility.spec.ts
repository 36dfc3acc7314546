import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectLayout } from './layout.ts';
import {
  chooseLanguageAndTheme,
  combinationName,
  COMBINATIONS,
  seedWorkspace,
  type Screen,
  visitEveryScreen,
  type Workspace,
} from './walk.ts';

/** What the suite refuses (ADR 0060): the impacts a person using a screen reader or low vision is blocked by. */
const BLOCKING = new Set(['serious', 'critical']);

/** For a contrast failure, the colours axe measured, so the message says what to change. */
function contrastOf(data: unknown): string {
  const colours = data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
  return colours?.contrastRatio ? ` [${colours.fgColor} on ${colours.bgColor}: ${colours.contrastRatio}]` : '';
}

/** axe-core on the page as it is now; answers one line per serious or critical violation, naming its nodes. */
async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Only violations are read: axe then keeps one node of each other result, which makes a run markedly faster.
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 4)
        .map((node) => `${node.target.join(' ')}${contrastOf(node.any[0]?.data)}`)
        .join(', ');
      const more = violation.nodes.length > 4 ? ` and ${violation.nodes.length - 4} more` : '';
      return `${screen}: ${violation.id} (${violation.impact}) ${violation.help} — ${nodes}${more}`;
    });
}

async function check(page: Page, screen: string, testInfo: TestInfo): Promise<void> {
  expect.soft(await axeViolations(page, screen), `axe on ${screen}`).toEqual([]);
  await expectLayout(page, screen, testInfo);
}

async function walk(page: Page, screens: readonly Screen[], workspace: Workspace | null, testInfo: TestInfo) {
  for (const screen of screens) {
    await test.step(screen.name, async () => {
      await screen.open(page, workspace);
      await check(page, screen.name, testInfo);
    });
  }
}

// The combinations are independent tests: let the workers share them.
test.describe.configure({ mode: 'parallel' });

// One test per language × theme × width walks every screen in one context, so the suite pays for one sign-up, one
// connection and one rule run per combination rather than per screen (ADR 0060).
for (const combination of COMBINATIONS) {
  test(`every screen passes axe and the layout checks: ${combinationName(combination)}`, async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(360_000);
    const { language, theme, width } = combination;

    // The data is made in English, in a context of its own (the sandbox's consent screen is checked on the way).
    const seeding = await browser.newContext({ viewport: width.viewport });
    const workspace = await seedWorkspace(await seeding.newPage(), request, (consent) =>
      check(consent, 'sandbox-consent', testInfo),
    );
    await seeding.close();

    const context = await browser.newContext({ viewport: width.viewport });
    await chooseLanguageAndTheme(context, language, theme);
    const page = await context.newPage();
    await visitEveryScreen(page, request, workspace, (screens, shown) => walk(page, screens, shown, testInfo));
    // The theme and language the walk asked for are the ones it checked.
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await context.close();
  });
}
