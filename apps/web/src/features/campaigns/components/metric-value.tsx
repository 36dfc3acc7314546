import { clsx } from 'clsx';
import { changeTone, type MetricKey } from '../lib/columns.ts';
import { useEntityWords, type EntityWords } from '../hooks/use-entity-words.ts';

const TONE_CLASSES = {
  good: 'text-green-700 dark:text-green-400',
  bad: 'text-red-700 dark:text-red-400',
  neutral: 'text-gray-500 dark:text-gray-400',
} as const;

interface MetricValueProps {
  metric: MetricKey;
  value: number | null;
  previous: number | null | undefined;
  currency: string;
  /** The previous period's length in days, for the sentence a screen reader hears. */
  days: number;
  align?: 'right' | 'left';
}

/** A figure of the window and, under it, its change against the previous period of the same length. */
export function MetricValue(props: MetricValueProps) {
  return <MetricFigure {...props} words={useEntityWords()} />;
}

/** `MetricValue` with the words handed in: a table's rows share their table's. */
export function MetricFigure({
  metric,
  value,
  previous,
  currency,
  days,
  align = 'right',
  words,
}: MetricValueProps & { words: EntityWords }) {
  const change = words.change(value, previous, days);
  const tone = changeTone(metric, change.percent);
  return (
    <span className={clsx('flex flex-col tabular-nums', align === 'right' ? 'items-end' : 'items-start')}>
      <span className="whitespace-nowrap text-gray-900 dark:text-gray-100">
        {words.metric(metric, value, currency)}
      </span>
      <span className={clsx('text-xs whitespace-nowrap', TONE_CLASSES[tone])} title={change.sentence}>
        <span aria-hidden="true">{change.short || '·'}</span>
        <span className="sr-only">{change.sentence}</span>
      </span>
    </span>
  );
}
