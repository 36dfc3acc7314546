import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** What axe looks at and how (axe-core's `run` context and options). */
interface AxeRun {
  include?: string[];
  options: {
    runOnly?: { type: 'tag'; values: string[] };
    rules?: Record<string, { enabled: boolean }>;
    resultTypes?: string[];
  };
}

// The axe-core build that @axe-core/playwright itself would put in the page: its own dependency, minified.
const axeRequire = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = readFileSync(axeRequire.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it is now.
 *
 * AxeBuilder puts axe's 0.5 MB of source into the page on every check, and in its default mode also opens a blank
 * page to combine the results of each frame; on the shared two-core machine that was 1.5–2 s per check, the run itself
 * 0.2 s. Here axe is put into each document once (a screen checked in both themes, the AI Studio's tabs, share it)
 * and `axe.run` is called where the page is, what AxeBuilder's legacy mode does. The product's pages have no frames;
 * one would go unchecked by a run like this, so a page with one is refused rather than half checked.
 */
export async function runAxe(page: Page, { include, options }: AxeRun): Promise<AxeResults> {
  const frames = page.frames().length;
  if (frames > 1) throw new Error(`${page.url()} has ${frames - 1} frame(s): axe is run on pages without frames`);
  const present = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!present) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ include, options }) => {
      // Runs in the browser; the e2e tsconfig has no DOM types, hence the narrow view of axe and the document.
      const browser = globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<AxeResults> };
        document: unknown;
      };
      return browser.axe.run(include ? { include } : browser.document, options);
    },
    { include, options },
  );
}

/** What the suite refuses (ADR 0060): the impacts a person using a screen reader or low vision is blocked by. */
const BLOCKING = new Set(['serious', 'critical']);

/** For a contrast failure, the colours axe measured, so the message says what to change. */
function contrastOf(data: unknown): string {
  const colours = data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
  return colours?.contrastRatio ? ` [${colours.fgColor} on ${colours.bgColor}: ${colours.contrastRatio}]` : '';
}

/**
 * axe under the WCAG 2.0/2.1 A and AA tags on the page as it is now; answers one line per serious or critical
 * violation, naming its nodes.
 */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const results = await runAxe(page, {
    options: {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // Only violations are read: axe then keeps one node of each other result, which makes a run markedly faster.
      resultTypes: ['violations'],
    },
  });
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
