import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';
import { fieldErrorId } from '../../../../components/ui/input.tsx';

const CONTROL =
  'block h-9 w-full rounded-lg border bg-white px-2.5 text-sm text-gray-900 focus:outline-2 focus:outline-offset-0 dark:bg-gray-800 dark:text-gray-100';

export function Select({ invalid, className, id, ...props }: ComponentProps<'select'> & { invalid?: boolean }) {
  return (
    <select
      id={id}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid && id ? fieldErrorId(id) : undefined}
      className={clsx(
        CONTROL,
        invalid
          ? 'border-red-500 focus:outline-red-500'
          : 'border-gray-300 focus:outline-blue-600 dark:border-gray-600',
        className,
      )}
      {...props}
    />
  );
}

export function SmallInput({ invalid, className, id, ...props }: ComponentProps<'input'> & { invalid?: boolean }) {
  return (
    <input
      id={id}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid && id ? fieldErrorId(id) : undefined}
      className={clsx(
        CONTROL,
        invalid
          ? 'border-red-500 focus:outline-red-500'
          : 'border-gray-300 focus:outline-blue-600 dark:border-gray-600',
        className,
      )}
      {...props}
    />
  );
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
