import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type Page } from '@playwright/test';
import {
  chooseLanguageAndTheme,
  combinationName,
  COMBINATIONS,
  type Screen,
  visitEveryScreen,
  type Workspace,
} from '../walk.ts';
import { SCREENSHOTS_DIR, WORKSPACE_FILE } from './files.ts';

/** `TOUR_SCREENS=campaigns,campaign-entity`: only the screens named (comma-separated), in every combination. */
const ONLY = process.env.TOUR_SCREENS?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);

async function picture(page: Page, prefix: string, screens: readonly Screen[], workspace: Workspace | null) {
  for (const screen of screens.filter((item) => !ONLY?.length || ONLY.includes(item.name))) {
    await test.step(screen.name, async () => {
      await screen.open(page, workspace);
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `${prefix}-${screen.name}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    });
  }
}

test.describe.configure({ mode: 'parallel' });

for (const combination of COMBINATIONS) {
  test(`tour ${combinationName(combination)}`, async ({ browser, request }) => {
    test.setTimeout(180_000);
    const workspace = JSON.parse(readFileSync(WORKSPACE_FILE, 'utf8')) as Workspace;
    const prefix = combinationName(combination);
    const context = await browser.newContext({ viewport: combination.width.viewport });
    await chooseLanguageAndTheme(context, combination.language, combination.theme);
    const page = await context.newPage();
    await visitEveryScreen(page, request, workspace, (screens, shown) => picture(page, prefix, screens, shown));
    await context.close();
  });
}
