import { PLAN_TABLE, type PlanEntry } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format.ts';
import { PlanFeatureList } from '../../../components/plan-feature-list.tsx';

export const PLANS_HEADING_ID = 'plans-heading';

/**
 * The plans as the contracts' one table holds them (ADR 0113, 0137): the figures the server enforces, each price in
 * dollars and in baht as the reader's language writes money. Signed out, every card leads to sign-up; the plan is
 * chosen later on the Subscription page.
 */
function PlanOffer({ plan }: { plan: PlanEntry }) {
  const { t, i18n } = useTranslation(['landing', 'subscription']);
  const language = i18n.language;
  return (
    <li
      aria-label={plan.name}
      className={clsx(
        'relative flex flex-col rounded-xl border bg-white p-6 shadow-sm dark:bg-gray-950',
        plan.badge ? 'border-blue-500 ring-1 ring-blue-500' : 'border-gray-200 dark:border-gray-800',
      )}
    >
      {plan.badge && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-blue-600 px-3 py-1 text-xs font-semibold text-white">
          {t(`subscription:badge.${plan.badge}`)}
        </span>
      )}
      <h3 className="text-lg font-semibold text-gray-900 dark:text-white">{plan.name}</h3>
      <p className="mt-3">
        <span className="text-3xl font-bold text-gray-900 dark:text-white" data-testid={`price-usd-${plan.id}`}>
          {formatMoney(plan.prices.USD, 'USD', language)}
        </span>
        <span className="text-sm text-gray-600 dark:text-gray-400">{t('landing:plans.perMonth')}</span>
      </p>
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid={`price-thb-${plan.id}`}>
        {t('landing:plans.inBaht', { price: formatMoney(plan.prices.THB, 'THB', language) })}
      </p>
      <PlanFeatureList plan={plan} />
      <Link
        to="/register"
        className="mt-6 inline-flex h-10 items-center justify-center rounded-lg bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        {plan.prices.USD === 0 ? t('landing:plans.startFree') : t('landing:plans.startWith', { name: plan.name })}
      </Link>
    </li>
  );
}

export function PlansSection() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby={PLANS_HEADING_ID} className="bg-gray-50 py-20 dark:bg-gray-900">
      <div className="mx-auto max-w-6xl px-4">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id={PLANS_HEADING_ID} className="text-3xl font-bold text-gray-900 dark:text-white">
            {t('plans.title')}
          </h2>
          <p className="mt-4 text-gray-600 dark:text-gray-400">{t('plans.subtitle')}</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {PLAN_TABLE.map((plan) => (
            <PlanOffer key={plan.id} plan={plan} />
          ))}
        </ul>
      </div>
    </section>
  );
}
