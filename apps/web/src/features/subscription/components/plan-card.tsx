import type { Plan } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { pageCurrency, priceIn } from '../api/subscription.ts';
import { PlanFeatureList } from '../../../components/plan-feature-list.tsx';

interface PlanCardProps {
  plan: Plan;
  current: boolean;
  pending: boolean;
  disabled: boolean;
  /** Absent where the instance administrator assigns plans (ADR 0087): the card shows the plan, not a choice. */
  onChoose?: (plan: Plan) => void;
}

export function PlanCard({ plan, current, pending, disabled, onChoose }: PlanCardProps) {
  const { t, i18n } = useTranslation('subscription');
  // A Thai page sees and pays the plan's baht price (ADR 0114).
  const currency = pageCurrency(i18n.language);
  return (
    <article
      aria-label={plan.name}
      className={clsx(
        'relative flex flex-col rounded-xl border bg-white p-6 shadow-sm dark:bg-gray-900',
        current ? 'border-blue-500 ring-2 ring-blue-500' : 'border-gray-200 dark:border-gray-800',
      )}
    >
      {plan.badge && (
        <span
          className={clsx(
            'absolute -top-3 left-1/2 -translate-x-1/2 rounded-full px-3 py-1 text-xs font-semibold text-white',
            plan.badge === 'popular' ? 'bg-blue-600' : 'bg-purple-600',
          )}
        >
          {t(`badge.${plan.badge}`)}
        </span>
      )}
      <h3 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{plan.name}</h3>
      <p className="mt-3">
        <span className="text-3xl font-bold text-gray-900 dark:text-gray-100">
          {formatMoney(priceIn(plan, currency), currency, i18n.language)}
        </span>
        <span className="text-sm text-gray-600 dark:text-gray-400">{t('perMonth')}</span>
      </p>
      <PlanFeatureList plan={plan} />
      {onChoose ? (
        <Button
          className="mt-6 w-full"
          variant={current ? 'secondary' : 'primary'}
          loading={pending}
          disabled={disabled}
          aria-current={current ? 'true' : undefined}
          onClick={() => onChoose(plan)}
        >
          {current ? t('currentPlanButton') : t('choose', { name: plan.name })}
        </Button>
      ) : (
        current && (
          <p className="mt-6 text-center text-sm font-medium text-blue-700 dark:text-blue-300">
            {t('currentPlanButton')}
          </p>
        )
      )}
    </article>
  );
}
