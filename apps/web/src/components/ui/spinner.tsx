import { clsx } from 'clsx';
import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const SIZES = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

export interface SpinnerProps {
  size?: keyof typeof SIZES;
  /** What is loading, for screen readers; defaults to "Loading…". */
  label?: string;
  className?: string;
}

export function Spinner({ size = 'md', label, className }: SpinnerProps) {
  const { t } = useTranslation('common');
  return (
    <span role="status" aria-label={label ?? t('loading')} className={clsx('inline-flex', className)}>
      <Loader2 aria-hidden="true" className={clsx(SIZES[size], 'animate-spin text-blue-600 dark:text-blue-400')} />
    </span>
  );
}

/** A spinner centred in the whole viewport, for screens that cannot show anything yet. */
export function PageSpinner({ label }: Pick<SpinnerProps, 'label'>) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gray-50 dark:bg-gray-950">
      <Spinner size="lg" label={label} />
    </div>
  );
}
