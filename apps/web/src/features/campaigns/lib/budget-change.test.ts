import { describe, expect, it } from 'vitest';
import { actionItem, parseValue } from './budget-change.ts';

describe('manual budget changes', () => {
  it('takes a positive number, with or without thousands separators, and nothing else', () => {
    expect(parseValue('1,500')).toBe(1500);
    expect(parseValue(' 12.5 ')).toBe(12.5);
    expect(parseValue('0')).toBeNull();
    expect(parseValue('-5')).toBeNull();
    expect(parseValue('1e3')).toBeNull();
    expect(parseValue('')).toBeNull();
    expect(parseValue('abc')).toBeNull();
  });

  it('asks the API for a percent or an amount as chosen, and nothing for a pause', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(actionItem(id, 'pause')).toEqual({ entityId: id, type: 'pause' });
    expect(actionItem(id, 'increase_budget', { type: 'increase_budget', by: 'percent', value: 20 })).toEqual({
      entityId: id,
      type: 'increase_budget',
      percent: 20,
    });
    expect(actionItem(id, 'decrease_budget', { type: 'decrease_budget', by: 'amount', value: 150 })).toEqual({
      entityId: id,
      type: 'decrease_budget',
      amount: 150,
    });
    // A budget is set to an amount, whatever "by" was left on.
    expect(actionItem(id, 'set_budget', { type: 'set_budget', by: 'percent', value: 900 })).toEqual({
      entityId: id,
      type: 'set_budget',
      amount: 900,
    });
  });
});
