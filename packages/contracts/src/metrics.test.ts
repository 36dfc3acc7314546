import { describe, expect, it } from 'vitest';
import { addTotals, currencyOffset, derivedMetrics, emptyTotals, toMajorUnits, toMinorUnits } from './metrics.ts';

describe('currency units', () => {
  it('uses hundredths for most currencies and none for the zero-decimal ones', () => {
    expect(currencyOffset('THB')).toBe(100);
    expect(currencyOffset('usd')).toBe(100);
    expect(currencyOffset('JPY')).toBe(1);
    expect(currencyOffset('KRW')).toBe(1);
    expect(toMinorUnits(500, 'THB')).toBe(50_000);
    expect(toMinorUnits(19.999, 'USD')).toBe(2000);
    expect(toMinorUnits(5000, 'JPY')).toBe(5000);
    expect(toMajorUnits(1234, 'USD')).toBe(12.34);
  });
});

describe('derived metrics', () => {
  const day = {
    spend: 600,
    impressions: 20_000,
    reach: 8000,
    clicks: 300,
    linkClicks: 250,
    conversions: 4,
    conversionValue: 2400,
  };

  it('computes the formulas Meta uses', () => {
    expect(derivedMetrics.ctr(day)).toBe(1.5);
    expect(derivedMetrics.cpc(day)).toBe(2);
    expect(derivedMetrics.cpm(day)).toBe(30);
    expect(derivedMetrics.cpa(day)).toBe(150);
    expect(derivedMetrics.roas(day)).toBe(4);
    expect(derivedMetrics.frequency(day)).toBe(2.5);
  });

  it('answers null instead of dividing by zero', () => {
    const none = emptyTotals();
    for (const formula of Object.values(derivedMetrics)) expect(formula(none)).toBeNull();
    expect(derivedMetrics.cpa({ ...day, conversions: 0 })).toBeNull();
  });

  it('sums totals field by field', () => {
    const sum = addTotals(addTotals(emptyTotals(), day), day);
    expect(sum).toEqual({
      spend: 1200,
      impressions: 40_000,
      reach: 16_000,
      clicks: 600,
      linkClicks: 500,
      conversions: 8,
      conversionValue: 4800,
    });
  });
});
