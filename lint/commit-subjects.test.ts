import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Commit subjects are at most 72 characters, details in the body (docs/start-here.md, "Commands while developing").
 * Older commits predate the rule and stay as they are: history is not rewritten. Checked from the first commit made
 * under the rule.
 */
const RULE_SINCE = '92a5a0d';
const SUBJECT_MAX = 72;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: import.meta.dirname, encoding: 'utf8' });
}

describe('commit subjects', () => {
  it(`are at most ${SUBJECT_MAX} characters since the rule`, () => {
    const subjects = git('log', '--format=%h %s', `${RULE_SINCE}..HEAD`).split('\n').filter(Boolean);
    const long = subjects.filter((line) => [...line.slice(line.indexOf(' ') + 1)].length > SUBJECT_MAX);
    expect(long).toEqual([]);
  });
});
