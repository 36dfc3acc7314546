import { UNLIMITED, type CurrentSubscription, type Plan, type PlanId } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { pageCurrency, priceIn } from '../api/subscription.ts';

/** Active rules a move to `limit` switches off: the server keeps the oldest and switches off the newest beyond it. */
export function rulesSwitchedOff(activeRules: number, limit: number): number {
  return limit === UNLIMITED ? 0 : Math.max(0, activeRules - limit);
}

interface PlanChangeQuestionProps {
  subscription: CurrentSubscription;
  plans: readonly Plan[];
  target: PlanId;
  /** Whether to pay by PromptPay (baht through Stripe only), and how the choice is changed; absent, not offered. */
  promptPay?: boolean;
  onPromptPay?: (value: boolean) => void;
}

/**
 * What a plan change does, in numbers: the new price and limits, how many active rules the new limit switches off,
 * that rules checking faster than the new plan are slowed, and when a cancellation through the payment provider
 * takes effect (ADR 0058).
 */
export function PlanChangeQuestion({
  subscription,
  plans,
  target,
  promptPay = false,
  onPromptPay,
}: PlanChangeQuestionProps) {
  const { t, i18n } = useTranslation('subscription');
  const next = plans.find((plan) => plan.id === target);
  const now = plans.find((plan) => plan.id === subscription.plan);
  if (!next) return null;
  const limit = (key: 'adAccounts' | 'activeRules' | 'aiRequests', value: number) =>
    t(`planChange.limits.${key}`, value === UNLIMITED ? { context: 'unlimited' } : { count: value });
  const limits = new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format([
    limit('adAccounts', next.limits.adAccounts),
    limit('activeRules', next.limits.activeRules),
    limit('aiRequests', next.limits.aiRequests),
    t('planChange.limits.check', { count: next.limits.fastestCheckMinutes }),
  ]);
  const switchedOff = rulesSwitchedOff(subscription.rulesUsed, next.limits.activeRules);
  const slower = now !== undefined && next.limits.fastestCheckMinutes > now.limits.fastestCheckMinutes;
  // Through the payment provider a cancellation (the free plan) waits for the end of the period paid for.
  const atPeriodEnd = target === 'free' && subscription.provider === 'stripe';
  const periodEnd = formatDate(subscription.currentPeriodEnd, i18n.language);
  const currency = pageCurrency(i18n.language);
  const price = formatMoney(priceIn(next, currency), currency, i18n.language);
  return (
    <div className="space-y-2" data-testid="plan-change-question">
      <p className="font-medium text-gray-900 dark:text-gray-100">
        {t('planChange.price', { name: next.name, price })}
      </p>
      <p>{t('planChange.limitsLine', { limits })}</p>
      {atPeriodEnd && <p>{t('planChange.atPeriodEnd', { date: periodEnd })}</p>}
      {switchedOff > 0 && (
        <p className="text-amber-800 dark:text-amber-300">
          {t('planChange.rulesOff', {
            count: switchedOff,
            active: subscription.rulesUsed,
            limit: next.limits.activeRules,
          })}
        </p>
      )}
      {slower && <p>{t('planChange.slower', { count: next.limits.fastestCheckMinutes })}</p>}
      {next.price > 0 && subscription.provider === 'stripe' && <p>{t('planChange.payment')}</p>}
      {onPromptPay && next.price > 0 && subscription.provider === 'stripe' && currency === 'THB' && (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={promptPay} onChange={(event) => onPromptPay(event.target.checked)} />
          {t('planChange.promptPay')}
        </label>
      )}
    </div>
  );
}
