import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { seedWorkspace, WIDTHS } from '../walk.ts';
import { SCREENSHOTS_DIR, WORKSPACE_FILE } from './files.ts';

test('seed one workspace for the tour: a connected sandbox, a rule that ran, activity', async ({ page, request }) => {
  test.setTimeout(120_000);
  rmSync(SCREENSHOTS_DIR, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  // The consent screen is the sandbox's own page, in English and one theme: pictured at both widths on the way.
  const workspace = await seedWorkspace(page, request, async (consent) => {
    for (const width of WIDTHS) {
      await consent.setViewportSize(width.viewport);
      await consent.screenshot({
        path: join(SCREENSHOTS_DIR, `en-light-${width.name}-sandbox-consent.png`),
        fullPage: true,
      });
    }
  });
  writeFileSync(WORKSPACE_FILE, JSON.stringify(workspace));
});
