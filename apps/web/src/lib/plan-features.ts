import type { PlanLimits } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';

/*
 * A plan's feature codes in words, with the plan's own figures. The Subscription page's cards and the landing page's
 * plans both list them, so the words live once, in the `subscription` catalogue, and this is their one reader.
 */

/** The seats are a limit of every plan, not one of its listed features: they come first. */
export function planFeatureCodes(features: readonly string[]): string[] {
  return ['seats', ...features.filter((code) => code !== 'seats')];
}

/** A feature code in words, with the plan's own figures; "-1" limits read as unlimited. */
export function usePlanFeatureText(): (code: string, limits: PlanLimits) => string {
  const { t } = useTranslation('subscription');
  return (code, limits) => {
    const count = (value: number) => (value === -1 ? { context: 'unlimited' } : { count: value });
    switch (code) {
      case 'ad_accounts':
        return t('features.ad_accounts', count(limits.adAccounts));
      case 'active_rules':
        return t('features.active_rules', count(limits.activeRules));
      case 'ai_requests':
        return t('features.ai_requests', count(limits.aiRequests));
      case 'seats':
        return t('features.seats', count(limits.seats));
      case 'rule_check':
        return t('features.rule_check', { count: limits.fastestCheckMinutes });
      case 'backtest':
        return t('features.backtest', { count: limits.backtestDays });
      default:
        return t(`features.${code}`, { defaultValue: code });
    }
  };
}
