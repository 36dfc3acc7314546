import { describe, expect, it } from 'vitest';
import {
  changePercent,
  changeTone,
  COLUMN_KEYS,
  DEFAULT_COLUMNS,
  nextSort,
  parseSort,
  readColumns,
  sortParam,
  storeColumns,
} from './columns.ts';

describe('explorer columns', () => {
  it('keeps each user their own choice, in the catalogue order, and ignores what it does not know', () => {
    storeColumns('user-a', ['roas', 'status', 'spend']);
    expect(readColumns('user-a')).toEqual(['status', 'spend', 'roas']);
    expect(readColumns('user-b')).toEqual([...DEFAULT_COLUMNS]);
    localStorage.setItem('explorer.columns.user-c', JSON.stringify(['clicks', 'nonsense', 42]));
    expect(readColumns('user-c')).toEqual(['clicks']);
    localStorage.setItem('explorer.columns.user-d', '{not json');
    expect(readColumns('user-d')).toEqual([...DEFAULT_COLUMNS]);
    expect(DEFAULT_COLUMNS.every((key) => COLUMN_KEYS.includes(key))).toBe(true);
  });

  it('sorts a new figure highest first and a name A to Z, and turns the order round on the same column', () => {
    expect(nextSort({ key: 'spend', descending: true }, 'cpa')).toEqual({ key: 'cpa', descending: true });
    expect(nextSort({ key: 'spend', descending: true }, 'name')).toEqual({ key: 'name', descending: false });
    expect(nextSort({ key: 'cpa', descending: true }, 'cpa')).toEqual({ key: 'cpa', descending: false });
    expect(sortParam({ key: 'roas', descending: true })).toBe('-roas');
    expect(sortParam({ key: 'name', descending: false })).toBe('name');
    expect(parseSort('-ctr')).toEqual({ key: 'ctr', descending: true });
    expect(parseSort('budget')).toEqual({ key: 'budget', descending: false });
    expect(parseSort('-password')).toEqual({ key: 'spend', descending: true });
  });

  it('measures the change against the previous period, none where the previous figure is missing or zero', () => {
    expect(changePercent(120, 100)).toBeCloseTo(20);
    expect(changePercent(50, 200)).toBeCloseTo(-75);
    expect(changePercent(10, 0)).toBeNull();
    expect(changePercent(null, 10)).toBeNull();
    expect(changePercent(10, null)).toBeNull();
  });

  it('reads a cost going up as bad and results going up as good, spend as neither', () => {
    expect(changeTone('cpa', 12)).toBe('bad');
    expect(changeTone('cpa', -12)).toBe('good');
    expect(changeTone('roas', 12)).toBe('good');
    expect(changeTone('results', -3)).toBe('bad');
    expect(changeTone('spend', 40)).toBe('neutral');
    expect(changeTone('ctr', null)).toBe('neutral');
  });
});
