import {
  ACTION_FAILURE_CODES,
  ACTION_SKIP_CODES,
  NOT_JUDGED_CODES,
  RULE_RUN_ERROR_CODES,
  RULE_WARNING_CODES,
} from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en/rules.json';
import th from '../../locales/th/rules.json';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('rules catalogues', () => {
  it('Thai translates every English key', () => {
    expect(keysOf(th).sort()).toEqual(keysOf(en).sort());
  });

  it('every code the server stores has its words in both languages', () => {
    const groups: [string, readonly string[]][] = [
      ['explain.failure', ACTION_FAILURE_CODES],
      ['explain.skip', ACTION_SKIP_CODES],
      ['explain.notJudged', NOT_JUDGED_CODES],
      ['warnings', RULE_WARNING_CODES],
      ['detail.runError', RULE_RUN_ERROR_CODES],
    ];
    for (const catalogue of [en, th]) {
      const keys = new Set(keysOf(catalogue));
      for (const [path, codes] of groups) {
        for (const code of codes) expect(keys, `${path}.${code}`).toContain(`${path}.${code}`);
      }
    }
  });
});
