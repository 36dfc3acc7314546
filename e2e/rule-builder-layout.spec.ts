import { expect, test, type Page } from '@playwright/test';
import { runAxe } from './axe.ts';
import { signInFreshUser } from './session.ts';

/*
 * The rule builder's layout at a laptop and a phone width, in both languages: every select at least as wide as
 * its longest option, every button wide enough for its label, no sideways scrolling, and the rule in words on the
 * screen (ADR 0057). The figures are measured in the page, with its own fonts.
 */

const SIZES = [
  { name: 'laptop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const WORDS = {
  en: {
    template: /Scale winners on ROAS/,
    summary: 'The rule in plain words',
    addGroup: 'Add group',
    group: 'Group 3',
    innerGroup: 'Group 2',
    compareWith: 'Compare with',
    anotherMetric: 'another metric',
    operator: 'Comparison',
    condition: 'Condition 1',
  },
  th: {
    template: /เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี/,
    summary: 'สรุปกฎนี้เป็นคำพูด',
    addGroup: 'เพิ่มกลุ่ม',
    group: 'กลุ่มที่ 3',
    innerGroup: 'กลุ่มที่ 2',
    compareWith: 'เปรียบเทียบกับ',
    anotherMetric: 'ตัวชี้วัดอื่น',
    operator: 'การเปรียบเทียบ',
    condition: 'เงื่อนไขที่ 1',
  },
} as const;

/*
 * The room beside its text that Chromium's native select keeps for the drop-down arrow (20-21 px measured at
 * 14 px text). A select squeezed by its row, the clipping this spec guards against, loses tens of pixels.
 */
const ARROW_PX = 18;

interface Clipped {
  kind: 'select' | 'button';
  label: string;
  needed: number;
  has: number;
}

/** Runs in the page: every select narrower than its longest option, every button narrower than its label. */
function findClipped(arrow: number): Clipped[] {
  // The e2e project compiles without the DOM library: the few browser shapes used here, declared narrowly.
  interface Styled {
    clientWidth: number;
    scrollWidth: number;
    textContent: string | null;
    getAttribute(name: string): string | null;
  }
  interface SelectLike extends Styled {
    options: ArrayLike<{ text: string }>;
    labels: ArrayLike<{ textContent: string | null }>;
  }
  interface Browser {
    document: {
      querySelectorAll<T>(selector: string): ArrayLike<T>;
      createElement(tag: 'canvas'): {
        getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } };
      };
    };
    getComputedStyle(element: Styled): Record<string, string>;
  }
  const browser = globalThis as unknown as Browser;
  const context = browser.document.createElement('canvas').getContext('2d');
  const clipped: Clipped[] = [];
  for (const select of Array.from(browser.document.querySelectorAll<SelectLike>('main select'))) {
    const style = browser.getComputedStyle(select);
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const longest = Math.max(...Array.from(select.options).map((option) => context.measureText(option.text).width));
    const padding = parseFloat(style.paddingLeft ?? '0') + parseFloat(style.paddingRight ?? '0');
    const needed = Math.ceil(longest + padding + arrow);
    if (needed > select.clientWidth) {
      clipped.push({
        kind: 'select',
        label: select.labels[0]?.textContent ?? select.getAttribute('id') ?? '',
        needed,
        has: select.clientWidth,
      });
    }
  }
  for (const button of Array.from(browser.document.querySelectorAll<Styled>('main button'))) {
    if (button.scrollWidth > button.clientWidth) {
      const label = button.getAttribute('aria-label') ?? button.textContent ?? '';
      clipped.push({ kind: 'button', label, needed: button.scrollWidth, has: button.clientWidth });
    }
  }
  return clipped;
}

/** axe-core on the page's content: the serious and critical findings, each with the elements it names. */
async function seriousViolations(page: Page, skip: string[] = []): Promise<string[]> {
  const rules = Object.fromEntries(skip.map((rule) => [rule, { enabled: false }]));
  const axe = await runAxe(page, { include: ['main'], options: { rules } });
  return axe.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { documentElement } = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document;
    return documentElement.scrollWidth - documentElement.clientWidth;
  });
}

async function fontsReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready;
  });
}

/** A rule with every kind of row: the template's conditions, a metric against another, groups three deep. */
async function openBusyRule(page: Page, words: (typeof WORDS)['en' | 'th']): Promise<void> {
  await page.goto('/rules/new');
  const template = page.getByRole('button', { name: words.template });
  await expect(template).toBeVisible();
  await fontsReady(page);
  // The start (ask AI, templates) fits too.
  expect(await page.evaluate(findClipped, ARROW_PX)).toEqual([]);
  await template.click();
  const conditions = page.getByRole('group', { name: words.condition }).first();
  await conditions.getByLabel(words.compareWith).selectOption('metric');
  await page.getByRole('button', { name: words.addGroup, exact: true }).last().click();
  const nested = page.getByRole('group', { name: words.group });
  await nested.getByRole('button', { name: words.addGroup, exact: true }).click();
  await expect(nested.getByRole('group', { name: words.innerGroup })).toBeVisible();
}

for (const language of ['en', 'th'] as const) {
  for (const size of SIZES) {
    test(`the builder fits at ${size.width}×${size.height} in ${language}`, async ({ page, request }) => {
      // axe-core over a long form takes a while on a busy machine.
      test.setTimeout(90_000);
      const words = WORDS[language];
      await page.setViewportSize({ width: size.width, height: size.height });
      await signInFreshUser(page, request, `builder-${language}-${size.name}`);
      await page.addInitScript((choice) => {
        (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
          'language',
          choice,
        );
      }, language);
      await openBusyRule(page, words);
      await fontsReady(page);

      expect(await page.evaluate(findClipped, ARROW_PX)).toEqual([]);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);

      const summary = page.getByRole('region', { name: words.summary });
      await expect(summary).toBeVisible();
      // The summary follows the form: another comparison is said at once.
      const first = page.getByRole('group', { name: words.condition }).first();
      await first.getByLabel(words.operator).selectOption('lt');
      await expect(summary).toContainText(language === 'en' ? 'is less than' : 'น้อยกว่า');

      if (size.width >= 1280) {
        // Beside the form and held in view: at the foot of the page it is still on the screen.
        await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1e6));
        await expect(summary).toBeInViewport();
        const form = await page.getByRole('form').boundingBox();
        const box = await summary.boundingBox();
        expect(box!.x).toBeGreaterThan(form!.x + form!.width);
      } else {
        // Below the form on a phone, at the form's width.
        const form = await page.getByRole('form').boundingBox();
        const box = await summary.boundingBox();
        expect(box!.y).toBeGreaterThan(form!.y + form!.height);
        expect(Math.abs(box!.width - form!.width)).toBeLessThan(2);
      }
    });
  }
}

test('from 390 to 1920 px wide, nothing in the builder is clipped and nothing scrolls sideways', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // Thai has the longer words; one page resized through the widths where the layout changes.
  await signInFreshUser(page, request, 'builder-widths');
  // In the dark theme, which the other tests leave out.
  await page.addInitScript(() => {
    (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
      'theme',
      'dark',
    );
  });
  await openBusyRule(page, WORDS.th);
  for (const width of [390, 480, 640, 768, 1024, 1279, 1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await fontsReady(page);
    expect({ width, clipped: await page.evaluate(findClipped, ARROW_PX) }).toEqual({ width, clipped: [] });
    expect({ width, overflow: await overflow(page) }).toEqual({ width, overflow: 0 });
    await expect(page.getByRole('region', { name: WORDS.th.summary })).toBeVisible();
  }
  // The dark theme's colours are the shared components' (the primary button among them), checked page by page in
  // the accessibility suite; here only what the builder itself decides.
  expect(await seriousViolations(page, ['color-contrast'])).toEqual([]);
});
