import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

export interface InputProps extends ComponentProps<'input'> {
  /** Marks the input invalid and points screen readers at the message that `Field` renders. */
  invalid?: boolean;
}

export function fieldErrorId(inputId: string): string {
  return `${inputId}-error`;
}

/** What a control takes from its validity: `aria-invalid`, and the message (rendered by `Field`) it points at. */
export function validityAria(id: string | undefined, invalid: boolean | undefined) {
  return {
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid && id ? fieldErrorId(id) : undefined,
  };
}

/** A control's border and focus outline: red when invalid. */
export function validityBorder(invalid: boolean | undefined): string {
  return invalid
    ? 'border-red-500 focus:outline-red-500'
    : 'border-gray-300 focus:outline-blue-600 dark:border-gray-600';
}

export function Input({ invalid = false, className, id, ...props }: InputProps) {
  return (
    <input
      id={id}
      {...validityAria(id, invalid)}
      className={clsx(
        'block h-10 w-full rounded-lg border bg-white px-3 text-sm text-gray-900 placeholder:text-gray-400',
        'focus:outline-2 focus:outline-offset-0 dark:bg-gray-800 dark:text-gray-100 dark:placeholder:text-gray-500',
        validityBorder(invalid),
        className,
      )}
      {...props}
    />
  );
}
