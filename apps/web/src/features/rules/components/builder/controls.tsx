import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';
import { fieldErrorId, validityAria, validityBorder } from '../../../../components/ui/input.tsx';

const CONTROL =
  'block h-9 rounded-lg border bg-white px-2.5 text-sm text-gray-900 focus:outline-2 focus:outline-offset-0 disabled:opacity-60 dark:bg-gray-800 dark:text-gray-100';

/*
 * A select keeps its own width, which the browser takes from its longest option in the page's font: it never
 * clips its words, and a row of them wraps instead (ADR 0057). `max-w-full` only guards a box narrower than one
 * option, which no builder row is from 390 px up.
 */
const SELECT = 'w-auto max-w-full';
const INPUT = 'w-full';
/** A number in a sentence row: as wide as what is typed (where the browser can size a field to its content). */
const FITTED_INPUT = 'w-auto min-w-24 max-w-40 field-sizing-content';

type ControlProps<Element extends 'select' | 'input'> = ComponentProps<Element> & { invalid?: boolean };

/** The builder's compact control class: its validity's border after the shared shape. */
const controlClass = (invalid: boolean | undefined, width: string, className: string | undefined) =>
  clsx(CONTROL, width, validityBorder(invalid), className);

export function Select({ invalid, className, id, ...props }: ControlProps<'select'>) {
  return (
    <select id={id} {...validityAria(id, invalid)} className={controlClass(invalid, SELECT, className)} {...props} />
  );
}

export function SmallInput({ invalid, fitted, className, id, ...props }: ControlProps<'input'> & { fitted?: boolean }) {
  const width = fitted ? FITTED_INPUT : INPUT;
  return (
    <input id={id} {...validityAria(id, invalid)} className={controlClass(invalid, width, className)} {...props} />
  );
}

/** A select's options, one a value, each with the words `label` gives it. */
export function Options<Value extends string | number>({
  values,
  label,
  disabled,
}: {
  values: readonly Value[];
  label: (value: Value) => string;
  /** Options shown but not choosable (a schedule the plan does not allow). */
  disabled?: (value: Value) => boolean;
}) {
  return values.map((value) => (
    <option key={value} value={value} disabled={disabled?.(value) ?? false}>
      {label(value)}
    </option>
  ));
}

interface MiniFieldProps {
  id: string;
  label: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}

/** A compact labelled control with its message, for the builder's dense rows. */
export function MiniField({ id, label, error, className, children }: MiniFieldProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-xs font-medium text-gray-600 dark:text-gray-400">
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {error && (
        <p id={fieldErrorId(id)} className="mt-1 text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function Section({
  title,
  children,
  description,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm dark:border-gray-800 dark:bg-gray-900">
      <h2 className="text-base font-semibold text-gray-900 dark:text-gray-100">{title}</h2>
      {description && <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{description}</p>}
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}
