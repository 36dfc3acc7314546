import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meterColour, UsageMeter } from './usage-meter.tsx';

describe('usage meters (spec §9)', () => {
  it('are green below 70 %, yellow from 70, red from 90', () => {
    expect(meterColour(0)).toBe('bg-green-500');
    expect(meterColour(69.9)).toBe('bg-green-500');
    expect(meterColour(70)).toBe('bg-yellow-500');
    expect(meterColour(89.9)).toBe('bg-yellow-500');
    expect(meterColour(90)).toBe('bg-red-500');
    expect(meterColour(100)).toBe('bg-red-500');
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
