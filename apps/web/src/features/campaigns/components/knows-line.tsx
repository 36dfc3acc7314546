import { AlertTriangle, Clock, GraduationCap, History, Inbox, Workflow } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { EntityRow } from '../api/types.ts';
import { useEntityWords, type EntityWords } from '../hooks/use-entity-words.ts';

const CHIP =
  'inline-flex max-w-full items-center gap-1 truncate rounded-md px-1.5 py-0.5 text-xs ' +
  'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300';
const LINK_CHIP = `${CHIP} hover:underline focus-visible:outline-2 focus-visible:outline-blue-600`;

interface ChipProps {
  icon: ReactNode;
  /** The whole sentence: the tooltip and what a screen reader hears. */
  text: string;
  /** The few words a table row has room for; the sentence when absent. */
  short?: string | undefined;
  to?: string | null;
  tone?: string;
}

function Chip({ icon, text, short, to, tone }: ChipProps) {
  const className = tone ? `${to ? LINK_CHIP : CHIP} ${tone}` : to ? LINK_CHIP : CHIP;
  const content = short ? (
    <>
      {icon}
      <span aria-hidden="true" className="truncate">
        {short}
      </span>
      <span className="sr-only">{text}</span>
    </>
  ) : (
    <>
      {icon}
      <span className="truncate">{text}</span>
    </>
  );
  return (
    <li className="max-w-full min-w-0">
      {to ? (
        <Link to={to} className={className} title={text}>
          {content}
        </Link>
      ) : (
        <span className={className} title={text}>
          {content}
        </span>
      )}
    </li>
  );
}

const ICON = 'size-3 shrink-0';

/** The rule run's page: the rule's detail, scrolled to the run. */
export function runHref(ruleId: string | null, runId: string | null): string | null {
  if (!ruleId) return null;
  return runId ? `/rules/${ruleId}#run-${runId}` : `/rules/${ruleId}`;
}

/**
 * What AdPilot knows of one entity: the rules that watch it, its last action (linked to the run), proposals
 * waiting, a hold and when it resumes, a change made outside AdPilot, Meta's learning phase. Nothing when it knows
 * nothing.
 */
export function KnowsLine(props: KnowsLineProps) {
  return <KnowsChips {...props} words={useEntityWords()} />;
}

interface KnowsLineProps {
  entity: EntityRow;
  /** A table row: a few words per chip, on one line. */
  compact?: boolean;
  /** The account's zone, in which its instants are written. */
  timeZone?: string | undefined;
}

/** `KnowsLine` with the words handed in: a table's rows share their table's. */
export function KnowsChips({ entity, compact = false, timeZone, words }: KnowsLineProps & { words: EntityWords }) {
  const { t, format } = words;
  const short = (key: string, values: Record<string, unknown> = {}) =>
    compact ? t(`knows.short.${key}`, values) : undefined;
  const when = (at: string) => format.dateTime(at, { timeZone });
  const items: ReactNode[] = [];
  const [firstRule] = entity.rules;
  if (firstRule) {
    const text =
      entity.rules.length === 1
        ? t('knows.rules_one', { name: firstRule.name })
        : t('knows.rules_other', {
            count: entity.rules.length,
            names: entity.rules.map((rule) => rule.name).join(', '),
          });
    items.push(
      <Chip
        key="rules"
        icon={<Workflow aria-hidden="true" className={ICON} />}
        text={text}
        short={short('rules', { count: entity.rules.length })}
        to={entity.rules.length === 1 ? `/rules/${firstRule.id}` : null}
      />,
    );
  }
  if (entity.lastAction) {
    const action = entity.lastAction;
    items.push(
      <Chip
        key="last"
        icon={<History aria-hidden="true" className={ICON} />}
        text={t('knows.lastAction', {
          action: t(`actionTypes.${action.type}`, { defaultValue: action.type }),
          when: when(action.at),
        })}
        short={short('lastAction', { action: t(`actionTypes.${action.type}`, { defaultValue: action.type }) })}
        to={runHref(action.ruleId, action.runId)}
      />,
    );
  }
  if (entity.pendingProposals > 0)
    items.push(
      <Chip
        key="proposals"
        icon={<Inbox aria-hidden="true" className={ICON} />}
        text={t('knows.proposals', { count: entity.pendingProposals })}
        short={short('proposals', { count: entity.pendingProposals })}
        to="/inbox"
        tone="bg-blue-50 text-blue-800 dark:bg-blue-950/60 dark:text-blue-200"
      />,
    );
  if (entity.hold)
    items.push(
      <Chip
        key="hold"
        icon={<Clock aria-hidden="true" className={ICON} />}
        text={t('knows.hold', { when: format.timeUntil(entity.hold.resumesAt) })}
        short={short('hold', { when: format.timeUntil(entity.hold.resumesAt) })}
      />,
    );
  if (entity.externalChange) {
    const at = when(entity.externalChange.at);
    items.push(
      <Chip
        key="external"
        icon={<AlertTriangle aria-hidden="true" className={ICON} />}
        text={
          entity.externalChange.by
            ? t('knows.externalBy', { who: entity.externalChange.by, when: at })
            : t('knows.external', { when: at })
        }
        short={short('external')}
        tone="bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-100"
      />,
    );
  }
  if (entity.learning)
    items.push(
      <Chip
        key="learning"
        icon={<GraduationCap aria-hidden="true" className={ICON} />}
        text={t('knows.learning', { state: t(`knows.learningStates.${entity.learning}`) })}
        short={short('learning')}
      />,
    );
  if (items.length === 0) return null;
  return (
    <ul
      aria-label={t('knows.label')}
      className={compact ? 'flex min-w-0 gap-1 overflow-hidden' : 'flex min-w-0 flex-wrap gap-1'}
    >
      {items}
    </ul>
  );
}
