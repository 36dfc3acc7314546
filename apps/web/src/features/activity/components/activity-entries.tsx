import type { ActivityLevel, ActivityLog } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useActivityText, useActorText, useChangeLine } from '../../../lib/activity-text.ts';
import { useFormat } from '../../../lib/format.ts';
import { NARROW_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { EntityLine, entityOfMetadata } from '../../../components/entity-line.tsx';
import { ActivityDetail } from './activity-detail.tsx';

/** The level's dot colour, as on the dashboard (spec §2); info and success apart, as their words are. */
const LEVEL_DOT: Record<ActivityLevel, string> = {
  error: 'bg-red-500',
  warning: 'bg-yellow-500',
  info: 'bg-blue-500',
  success: 'bg-green-500',
};

const DETAIL_BUTTON =
  'text-xs font-medium text-blue-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';

interface ActivityEntriesProps {
  rows: ActivityLog[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  /** The previous page still on screen while the next loads. */
  stale: boolean;
}

/** The entity an entry names, linked to its page in Campaigns with its parents (when the entry says which). */
function EntityOfEntry({ metadata }: { metadata: Record<string, unknown> }) {
  const entity = entityOfMetadata(metadata);
  return entity ? <EntityLine entity={entity} className="mt-0.5" /> : null;
}

function Level({ level }: { level: ActivityLevel }) {
  const { t } = useTranslation('activity');
  return (
    <span className="inline-flex items-center gap-2">
      <span aria-hidden="true" className={clsx('size-2 shrink-0 rounded-full', LEVEL_DOT[level])} />
      {t(`levels.${level}`)}
    </span>
  );
}

/**
 * The entries: a table on wide screens; on a phone each entry is a card that shows all four facts — time, level,
 * type and the whole description — since a table of four columns cannot fit 390 px without hiding some (ADR 0059).
 */
export function ActivityEntries({ rows, selected, onToggle, onToggleAll, stale }: ActivityEntriesProps) {
  const { t } = useTranslation('activity');
  const text = useActivityText();
  const actorText = useActorText();
  const format = useFormat();
  const narrow = useMediaQuery(NARROW_QUERY);
  const changeLine = useChangeLine();
  // The open entry is in the address (?entry=<id>), so a detail can be linked to and Back closes it.
  const [search, setSearch] = useSearchParams();
  const open = rows.find((log) => log._id === search.get('entry')) ?? null;
  const detail = (
    <ActivityDetail
      log={open}
      onClose={() =>
        setSearch(
          (params) => {
            params.delete('entry');
            return params;
          },
          { replace: true },
        )
      }
    />
  );
  const more = (log: ActivityLog) => {
    const change = changeLine(log);
    return (
      <>
        {change && <span className="block text-gray-700 dark:text-gray-300">{change}</span>}
        <Link to={`?entry=${log._id}`} className={DETAIL_BUTTON}>
          {t('detail.open')}
        </Link>
      </>
    );
  };
  const allSelected = rows.length > 0 && rows.every((log) => selected.has(log._id));
  const time = (log: ActivityLog) => (
    <time dateTime={log.createdAt}>{format.dateTime(log.createdAt, { seconds: true })}</time>
  );
  const selectAll = (
    <input type="checkbox" aria-label={t('table.selectAll')} checked={allSelected} onChange={onToggleAll} />
  );

  if (narrow)
    return (
      <div className={clsx(stale && 'opacity-60')}>
        <label className="flex items-center gap-3 border-b border-gray-200 px-4 py-3 text-sm text-gray-600 dark:border-gray-800 dark:text-gray-400">
          {selectAll}
          <span aria-hidden="true">{t('table.selectAll')}</span>
        </label>
        <ul aria-label={t('table.entries')} className="divide-y divide-gray-100 dark:divide-gray-800">
          {rows.map((log) => (
            <li key={log._id} className="flex items-start gap-3 px-4 py-3 text-sm">
              <input
                type="checkbox"
                aria-label={t('table.select')}
                checked={selected.has(log._id)}
                onChange={() => onToggle(log._id)}
                className="mt-1 shrink-0"
              />
              <div className="min-w-0 flex-1 space-y-1">
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
                  {time(log)}
                  <span className="font-medium text-gray-800 dark:text-gray-200">
                    <Level level={log.level} />
                  </span>
                  <span className="rounded bg-gray-100 px-1.5 py-0.5 dark:bg-gray-800">
                    {t(`types.${log.type}`, log.type)}
                  </span>
                </p>
                <p className="break-words text-gray-900 dark:text-gray-100">{text(log)}</p>
                <EntityOfEntry metadata={log.metadata} />
                {log.actor && <p className="break-words text-xs text-gray-600 dark:text-gray-400">{actorText(log)}</p>}
                {more(log)}
              </div>
            </li>
          ))}
        </ul>
        {detail}
      </div>
    );

  return (
    <table className={clsx('w-full text-left text-sm', stale && 'opacity-60')}>
      <thead className="border-b border-gray-200 text-gray-600 dark:border-gray-800 dark:text-gray-400">
        <tr>
          <th className="w-10 p-3">{selectAll}</th>
          <th className="p-3 font-medium">{t('table.time')}</th>
          <th className="p-3 font-medium">{t('table.level')}</th>
          <th className="p-3 font-medium">{t('table.type')}</th>
          <th className="p-3 font-medium">{t('table.description')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((log) => (
          <tr key={log._id} className="border-b border-gray-100 last:border-0 dark:border-gray-800">
            <td className="p-3">
              <input
                type="checkbox"
                aria-label={t('table.select')}
                checked={selected.has(log._id)}
                onChange={() => onToggle(log._id)}
              />
            </td>
            <td className="p-3 whitespace-nowrap text-gray-600 dark:text-gray-400">{time(log)}</td>
            <td className="p-3 whitespace-nowrap">
              <Level level={log.level} />
            </td>
            <td className="p-3 whitespace-nowrap">{t(`types.${log.type}`, log.type)}</td>
            <td className="p-3 break-words text-gray-900 dark:text-gray-100">
              <span className="block">{text(log)}</span>
              <EntityOfEntry metadata={log.metadata} />
              {log.actor && <span className="block text-xs text-gray-600 dark:text-gray-400">{actorText(log)}</span>}
              {more(log)}
            </td>
          </tr>
        ))}
      </tbody>
      {detail}
    </table>
  );
}
