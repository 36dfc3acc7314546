import {
  ACTION_FAILURE_CODES,
  ACTION_SKIP_CODES,
  NOT_JUDGED_CODES,
  RULE_RUN_ERROR_CODES,
  RULE_WARNING_CODES,
} from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n.ts';
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
      ['explain.skip', ACTION_SKIP_CODES],
      ['explain.notJudged', NOT_JUDGED_CODES],
      ['warnings', RULE_WARNING_CODES],
    ];
    for (const catalogue of [en, th]) {
      const keys = new Set(keysOf(catalogue));
      for (const [path, codes] of groups) {
        for (const code of codes) expect(keys, `${path}.${code}`).toContain(`${path}.${code}`);
      }
    }
  });

  it('words the failures of actions and runs from the catalogue shared with the server', () => {
    // The run history reads them from the `activity` namespace, which holds contracts' ACTIVITY_MESSAGES.
    const shared: [string, readonly string[]][] = [
      ['actionFailures', ACTION_FAILURE_CODES],
      ['runErrors', RULE_RUN_ERROR_CODES],
    ];
    for (const language of ['en', 'th']) {
      for (const [group, codes] of shared) {
        for (const code of codes) expect(i18n.exists(`activity:${group}.${code}`, { lng: language }), code).toBe(true);
      }
    }
    expect(i18n.getFixedT('th')('activity:actionFailures.entity_missing')).toBe('รายการนี้ไม่มีอยู่แล้ว');
  });
});
