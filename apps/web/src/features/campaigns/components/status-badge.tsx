import { clsx } from 'clsx';
import { useEntityWords, type EntityWords } from '../hooks/use-entity-words.ts';

const TONES: Record<string, string> = {
  ACTIVE: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  WITH_ISSUES: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  DISAPPROVED: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  PENDING_REVIEW: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100',
  PENDING_BILLING_INFO: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100',
  IN_PROCESS: 'bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200',
};
const OTHER = 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300';

/** An effective status in words, coloured by what it means for delivery. */
export function StatusBadge({ status }: { status: string }) {
  return <StatusLabel status={status} words={useEntityWords()} />;
}

/** `StatusBadge` with the words handed in: a table's rows share their table's. */
export function StatusLabel({ status, words }: { status: string; words: EntityWords }) {
  return (
    <span
      className={clsx(
        'inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-medium',
        TONES[status] ?? OTHER,
      )}
    >
      {words.status(status)}
    </span>
  );
}
