import type { ConditionTrace, Explanation, GroupTrace } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { CheckCircle2, CircleDashed, XCircle } from 'lucide-react';
import { useWords } from '../hooks/use-words.ts';
import { conditionText, notJudgedText } from '../lib/explain.ts';

function ConditionLine({ trace }: { trace: ConditionTrace }) {
  const words = useWords();
  const held = trace.result === 'held';
  const Icon = held ? CheckCircle2 : trace.result === 'failed' ? XCircle : CircleDashed;
  return (
    <li className="flex items-start gap-1.5">
      <Icon
        aria-hidden="true"
        className={clsx('mt-0.5 size-3.5 shrink-0', held ? 'text-green-600 dark:text-green-400' : 'text-gray-400')}
      />
      <span>{conditionText(trace, words)}</span>
    </li>
  );
}

function GroupLines({ group, root = false }: { group: GroupTrace; root?: boolean }) {
  const { t } = useWords();
  const items = (
    <ul className={clsx('space-y-1', !root && 'mt-1 border-l border-gray-200 pl-3 dark:border-gray-700')}>
      {group.items.map((item) =>
        item.kind === 'group' ? (
          <li key={item.path}>
            <GroupLines group={item} />
          </li>
        ) : (
          <ConditionLine key={item.path} trace={item} />
        ),
      )}
    </ul>
  );
  const result = t(group.held ? 'explain.groupHeld' : 'explain.groupFailed');
  return (
    <div>
      <span className="font-medium">
        {t(group.match === 'all' ? 'explain.groupAll' : 'explain.groupAny', { result })}
      </span>
      {items}
    </div>
  );
}

/** Why the rule matched an entity or not: every condition with its value, in the page's language. */
export function ExplanationView({ explanation }: { explanation: Explanation }) {
  const words = useWords();
  return (
    <div className="space-y-1 text-sm text-gray-700 dark:text-gray-300">
      {explanation.notJudged && <p>{notJudgedText(explanation.notJudged, words)}</p>}
      {explanation.settling && <p className="text-amber-700 dark:text-amber-300">{words.t('explain.settling')}</p>}
      {explanation.conditions && <GroupLines group={explanation.conditions} root />}
    </div>
  );
}
