import { expect, test } from '@playwright/test';
import { findLayoutProblems } from './layout.ts';

// The layout helper on hand-made pages, so a walk that reports nothing means nothing was found, not nothing looked.
test('the layout helper finds a clipped select, a clipped button and a page wider than the window', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(`
    <select style="width:60px;font:14px sans-serif;padding:0 4px"><option>the last 3 days</option></select>
    <select style="width:220px;font:14px sans-serif;padding:0 4px"><option>the last 3 days</option></select>
    <button style="width:60px;overflow:hidden;white-space:nowrap">Delete selected (0)</button>
    <button style="width:220px">Save</button>
    <button style="width:40px;overflow:hidden;white-space:nowrap;visibility:hidden">Hidden and clipped</button>
    <div style="width:600px;height:10px"></div>`);
  const findings = await findLayoutProblems(page);
  expect(findings.map(({ kind, what }) => ({ kind, what }))).toEqual([
    { kind: 'page-overflow', what: expect.stringMatching(/^page 6\d\dpx wide in a 390px window$/) },
    { kind: 'clipped-select', what: 'the last 3 days' },
    { kind: 'clipped-button', what: 'Delete selected (0)' },
  ]);

  await page.setContent('<select style="width:220px"><option>7 วันล่าสุด</option></select><button>บันทึก</button>');
  expect(await findLayoutProblems(page)).toEqual([]);
});
