import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_SCREENS, combinationName, COMBINATIONS, PUBLIC_SCREENS, SIGNED_IN_SCREENS } from '../walk.ts';
import { SCREENSHOTS_DIR } from './files.ts';

const SCREENS = [
  ...PUBLIC_SCREENS.map((screen) => screen.name),
  'sandbox-consent',
  ...SIGNED_IN_SCREENS.map((screen) => screen.name),
  ...ADMIN_SCREENS.map((screen) => screen.name),
];

/**
 * Playwright's global teardown for the tour: `screenshots/index.html`, one row per screen in the walk's order and one
 * column per language × theme × width, each picture a thumbnail linking to the full page.
 */
export default function writeContactSheet(): void {
  const files = new Set(readdirSync(SCREENSHOTS_DIR).filter((file) => file.endsWith('.png')));
  const columns = COMBINATIONS.map(combinationName);
  const head = columns.map((column) => `<th>${column}</th>`).join('');
  const rows = SCREENS.map((screen) => {
    const cells = columns.map((column) => {
      const file = `${column}-${screen}.png`;
      return files.has(file)
        ? `<td><a href="${file}"><img src="${file}" alt="${screen}, ${column}" loading="lazy"></a></td>`
        : '<td class="none">—</td>';
    });
    return `<tr><th scope="row">${screen}</th>${cells.join('')}</tr>`;
  }).join('\n');
  writeFileSync(
    join(SCREENSHOTS_DIR, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AdPilot screenshot tour</title>
<style>
body{font-family:system-ui,sans-serif;margin:1rem;background:#f3f4f6;color:#111827}
table{border-collapse:collapse}
th{font-size:.8rem;padding:.25rem .5rem;text-align:left;position:sticky;top:0;background:#f3f4f6}
th[scope=row]{position:sticky;left:0;z-index:1}
td{padding:.25rem;vertical-align:top}
img{width:160px;max-height:240px;object-fit:cover;object-position:top;border:1px solid #d1d5db;background:#fff}
.none{color:#9ca3af;text-align:center}
</style>
</head>
<body>
<h1>AdPilot screenshot tour</h1>
<p>${files.size} pictures, taken ${new Date().toISOString()}. Each opens full size.</p>
<table>
<thead><tr><th>screen</th>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`,
  );
}
