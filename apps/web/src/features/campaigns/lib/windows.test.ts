import { describe, expect, it } from 'vitest';
import { isWindowChoice, rangeDays, rangeProblem, settlingDays, windowQuery } from './windows.ts';

describe('explorer windows', () => {
  it('counts the days of a range, both ends included', () => {
    expect(rangeDays({ from: '2026-11-01', to: '2026-11-30' })).toBe(30);
    expect(rangeDays({ from: '2026-11-30', to: '2026-11-30' })).toBe(1);
    // Across the change to winter time somewhere: calendar days, no zone.
    expect(rangeDays({ from: '2026-10-20', to: '2026-11-05' })).toBe(17);
    expect(rangeDays({ from: '2026-11-30', to: '2026-11-01' })).toBe(0);
  });

  it('refuses a custom range that ends before it starts or is longer than the API reads', () => {
    expect(rangeProblem({ from: '', to: '2026-11-30' })).toBe('missing');
    expect(rangeProblem({ from: '2026-12-01', to: '2026-11-30' })).toBe('fromAfterTo');
    expect(rangeProblem({ from: '2025-01-01', to: '2026-11-30' })).toBe('tooLong');
    expect(rangeProblem({ from: '2026-09-01', to: '2026-11-30' })).toBeNull();
  });

  it('counts the window days Meta may still revise', () => {
    expect(settlingDays({ from: '2026-11-24', to: '2026-11-30', settlingFrom: '2026-11-18' })).toBe(7);
    expect(settlingDays({ from: '2026-11-01', to: '2026-11-30', settlingFrom: '2026-11-18' })).toBe(13);
    expect(settlingDays({ from: '2026-10-01', to: '2026-10-31', settlingFrom: '2026-11-18' })).toBe(0);
  });

  it('sends a named window as itself and a custom range as its dates', () => {
    expect(windowQuery('last_30d', { from: '', to: '' })).toEqual({ window: 'last_30d' });
    expect(windowQuery('custom', { from: '2026-11-01', to: '2026-11-07' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-07',
    });
    expect(isWindowChoice('last_90d')).toBe(true);
    expect(isWindowChoice('last_365d')).toBe(false);
  });
});
