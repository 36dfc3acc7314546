import type { Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver.ts';

type Values = { email: string };

const valid: Resolver<Values, unknown, Values> = (values) => ({ values, errors: {} });
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

describe('lazyResolver', () => {
  it('fetches the validation on first use, once, and answers with it', async () => {
    const load = vi.fn(() => Promise.resolve(valid));
    const resolver = lazyResolver<Values, Values>(load);
    expect(load).not.toHaveBeenCalled();
    await expect(resolver({ email: 'a@example.com' }, undefined, options)).resolves.toEqual({
      values: { email: 'a@example.com' },
      errors: {},
    });
    await resolver({ email: 'b@example.com' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts the fetch on preload, and the next validation reuses it', async () => {
    const load = vi.fn(() => Promise.resolve(valid));
    const resolver = lazyResolver<Values, Values>(load);
    resolver.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await resolver({ email: 'a@example.com' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed fetch again on the next validation', async () => {
    const load = vi.fn<() => Promise<typeof valid>>().mockRejectedValueOnce(new Error('offline'));
    load.mockResolvedValue(valid);
    const resolver = lazyResolver<Values, Values>(load);
    await expect(resolver({ email: 'a@example.com' }, undefined, options)).rejects.toThrow('offline');
    await expect(resolver({ email: 'a@example.com' }, undefined, options)).resolves.toMatchObject({ errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
