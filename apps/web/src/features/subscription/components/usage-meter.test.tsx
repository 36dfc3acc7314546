import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meterColour, UsageMeter } from './usage-meter.tsx';

describe('usage meters (spec §9, ADR 0186)', () => {
  it('are green below 90 %, amber from 90 % to a full bar, red only past the limit', () => {
    expect(meterColour(0, 3)).toBe('bg-green-500');
    expect(meterColour(2, 3)).toBe('bg-green-500');
    expect(meterColour(8, 10)).toBe('bg-green-500');
    expect(meterColour(9, 10)).toBe('bg-amber-500');
    // A plan used as far as it goes is full, not an error: one ad account of one, three rules of three.
    expect(meterColour(1, 1)).toBe('bg-amber-500');
    expect(meterColour(3, 3)).toBe('bg-amber-500');
    // Past the limit (a downgrade left more than the plan holds).
    expect(meterColour(2, 1)).toBe('bg-red-500');
    expect(meterColour(500, -1)).toBe('bg-green-500');
  });

  it('turn red when a monthly allowance is spent and its requests are refused', () => {
    expect(meterColour(29, 30, true)).toBe('bg-amber-500');
    expect(meterColour(30, 30, true)).toBe('bg-red-500');
    expect(meterColour(26, 30, true)).toBe('bg-green-500');
  });

  it('colour the bar a person sees by what it holds', () => {
    const bar = () => screen.getByRole('meter', { name: 'Ad accounts' }).firstElementChild;
    const { rerender } = render(<UsageMeter label="Ad accounts" used={1} limit={1} />);
    expect(bar()).toHaveClass('bg-amber-500');
    expect(bar()).toHaveStyle({ width: '100%' });
    rerender(<UsageMeter label="Ad accounts" used={2} limit={1} />);
    expect(bar()).toHaveClass('bg-red-500');
    rerender(<UsageMeter label="Ad accounts" used={30} limit={30} blocksAtLimit />);
    expect(bar()).toHaveClass('bg-red-500');
  });

  it('cap the width at 100 and show an unlimited limit as ∞ with an empty bar', () => {
    const { rerender } = render(<UsageMeter label="AI" used={45} limit={30} />);
    expect(screen.getByRole('meter', { name: 'AI' })).toHaveAttribute('aria-valuenow', '100');
    rerender(<UsageMeter label="AI" used={45} limit={-1} />);
    const meter = screen.getByRole('meter', { name: 'AI' });
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect(meter).toHaveAttribute('aria-valuetext', '45 / ∞');
    rerender(<UsageMeter label="AI" used={21} limit={30} />);
    expect(screen.getByRole('meter', { name: 'AI' })).toHaveAttribute('aria-valuenow', '70');
  });
});
