import { clsx } from 'clsx';
import { Loader2 } from 'lucide-react';
import type { ComponentProps } from 'react';

const VARIANTS = {
  primary:
    'bg-blue-600 text-white hover:bg-blue-700 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400',
  secondary:
    'border border-gray-300 bg-white text-gray-900 hover:bg-gray-50 focus-visible:outline-blue-600 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700',
  // Disabled, a danger button turns neutral grey rather than a dimmed red that still reads as a live warning
  // (gray-600 on gray-200 is 6.1:1, gray-400 on gray-800 5.6:1: legible, and plainly off). Enabled, it stays red-600
  // in the dark theme too: white on red-500 is under 4.5:1.
  danger:
    'bg-red-600 text-white enabled:hover:bg-red-700 focus-visible:outline-red-600 disabled:bg-gray-200 disabled:text-gray-600 dark:focus-visible:outline-red-400 dark:disabled:bg-gray-800 dark:disabled:text-gray-400',
  ghost: 'text-gray-700 hover:bg-gray-100 focus-visible:outline-blue-600 dark:text-gray-200 dark:hover:bg-gray-800',
} as const;

const SIZES = {
  sm: 'h-8 gap-1.5 px-3 text-sm',
  md: 'h-10 gap-2 px-4 text-sm',
  lg: 'h-12 gap-2 px-6 text-base',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button while an action runs. */
  loading?: boolean;
}

/** Every other prop (ref included) reaches the `<button>`; the type defaults to "button" so it never submits by accident. */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  disabled,
  type = 'button',
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={clsx(
        'inline-flex items-center justify-center rounded-lg font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed',
        variant !== 'danger' && 'disabled:opacity-60',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    >
      {loading && <Loader2 aria-hidden="true" className="size-4 animate-spin" />}
      {children}
    </button>
  );
}
