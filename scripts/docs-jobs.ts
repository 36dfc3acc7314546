// Writes docs/ARCHITECTURE.md's "Jobs" table from the job registry (apps/server/src/jobs/job-registry.ts), between
// its two markers. `npm run docs:jobs`; `--check` only says whether the file is current (exit 1 when not).
// apps/server/src/jobs/job-docs.test.ts fails while the file differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jobsTable } from '../apps/server/src/jobs/job-registry.ts';

export const JOBS_START = '<!-- jobs: written by `npm run docs:jobs` from apps/server/src/jobs/job-registry.ts -->';
export const JOBS_END = '<!-- /jobs -->';

/** `markdown` with the text between the markers replaced by the registry's table. */
export function withJobsTable(markdown: string): string {
  const start = markdown.indexOf(JOBS_START);
  const end = markdown.indexOf(JOBS_END);
  if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md lacks the markers ${JOBS_START} … ${JOBS_END}`);
  return `${markdown.slice(0, start + JOBS_START.length)}\n${jobsTable()}\n${markdown.slice(end)}`;
}

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'ARCHITECTURE.md');
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const before = readFileSync(file, 'utf8');
  const after = withJobsTable(before);
  if (process.argv.includes('--check')) {
    if (after !== before) {
      console.error('docs/ARCHITECTURE.md: the Jobs table is not the registry’s; run npm run docs:jobs');
      process.exit(1);
    }
  } else if (after !== before) {
    writeFileSync(file, after);
    console.log('docs/ARCHITECTURE.md: Jobs table written');
  }
}
