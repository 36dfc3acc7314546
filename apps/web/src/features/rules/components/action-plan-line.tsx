import type { ActionPlan, PlannedChange, ActionSkip, RuleActionType } from '@adpilot/contracts';
import { useAdAccountCurrency } from '../../../api/ad-accounts.ts';
import { useWords } from '../hooks/use-words.ts';
import { changeText, skipText } from '../lib/explain.ts';

interface ActionPlanLineProps {
  type: RuleActionType;
  change: PlannedChange | null;
  skip?: ActionSkip | null;
  holderReason: ActionPlan['holderReason'];
  targetName: string;
  /** True when the budget is changed on another entity than the one judged. */
  onHolder: boolean;
  message?: string | null;
  /** The changed entity's ad account: its budgets are written in that account's currency. */
  adAccountId?: string;
}

/** One action for one entity: what it changes (from → to), or why it is skipped, and on which budget holder. */
export function ActionPlanLine({
  type,
  change,
  skip,
  holderReason,
  targetName,
  onHolder,
  message,
  adAccountId,
}: ActionPlanLineProps) {
  const words = useWords();
  const currency = useAdAccountCurrency(adAccountId);
  const { t } = words;
  let detail = '';
  if (skip) detail = skipText(skip, words);
  else if (change) detail = changeText(change, words, currency);
  else if (type === 'notify') detail = message ? t('explain.notifyMessage', { message }) : t('explain.notifyOnly');
  const holder = onHolder && holderReason && holderReason !== 'self' ? t(`explain.holder.${holderReason}`) : '';
  return (
    <div className="text-sm">
      <span className="font-medium text-gray-900 dark:text-gray-100">{t(`actionTypes.${type}`)}</span>
      {onHolder && <span className="text-gray-600 dark:text-gray-400"> · {targetName}</span>}
      {detail && (
        <span className={skip ? 'text-amber-700 dark:text-amber-300' : 'text-gray-700 dark:text-gray-300'}>
          {' '}
          — {detail}
        </span>
      )}
      {holder && <p className="text-xs text-gray-500 dark:text-gray-400">{holder}</p>}
    </div>
  );
}
