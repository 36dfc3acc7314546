import type { FieldValues, Resolver } from 'react-hook-form';

/** A form resolver fetched on first use, with a way to start the fetch early. */
export type LazyResolver<TFieldValues extends FieldValues, TTransformed> = Resolver<
  TFieldValues,
  unknown,
  TTransformed
> & { preload: () => void };

/**
 * A form's validation loaded with its first use, not with its page: the schema brings zod, which a page's first
 * download does not carry (ADR 0138). `preload` starts the fetch (the form calls it when a field first takes the
 * focus), so by the first submit it is usually in; a failed fetch is tried again on the next validation.
 */
export function lazyResolver<TFieldValues extends FieldValues, TTransformed>(
  load: () => Promise<Resolver<TFieldValues, unknown, TTransformed>>,
): LazyResolver<TFieldValues, TTransformed> {
  let pending: Promise<Resolver<TFieldValues, unknown, TTransformed>> | undefined;
  const resolver = () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  const resolve: Resolver<TFieldValues, unknown, TTransformed> = async (values, context, options) =>
    (await resolver())(values, context, options);
  return Object.assign(resolve, { preload: () => void resolver().catch(() => undefined) });
}
