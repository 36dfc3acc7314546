import { PLAN_IDS, UPGRADE_PATH, type ErrorCode, type PlanId } from '@adpilot/contracts';
import { useCallback, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';

/** The refusals a bigger plan lifts: wherever one shows, the way to the Subscription page shows with it. */
const PLAN_LIMIT_CODES: ReadonlySet<ErrorCode> = new Set([
  'PLAN_LIMIT_REACHED',
  'AD_ACCOUNT_LIMIT_REACHED',
  'AI_REQUEST_LIMIT_REACHED',
  'RULE_SCHEDULE_NOT_IN_PLAN',
  'SEAT_LIMIT_REACHED',
]);

export function isPlanLimitError(error: unknown): error is ApiError {
  return error instanceof ApiError && PLAN_LIMIT_CODES.has(error.code as ErrorCode);
}

const isPlanId = (value: unknown): value is PlanId => PLAN_IDS.includes(value as PlanId);

/**
 * A refusal's words followed by the upgrade link, for a toast (a plain link: toasts sit outside the router). Both
 * texts come from the caller, translated in its page's language: toasts render outside the page's content language.
 */
export function PlanLimitMessage({ text, link }: { text: string; link: string }) {
  return (
    <span>
      {text}{' '}
      <a href={UPGRADE_PATH} className="font-medium text-blue-600 underline dark:text-blue-400">
        {link}
      </a>
    </span>
  );
}

/**
 * The one way a plan refusal is said (ADR 0058): which limit, how much the plan allows and which plan, then the link
 * to the Subscription page. Called in the page, so the words are the page's language even inside a toast. Answers
 * null for any other error; a refusal without figures (an older server) falls back to its code's sentence.
 */
export function usePlanLimitNotice(): (error: unknown) => ReactElement | null {
  const { t } = useTranslation(['subscription', 'errors']);
  return useCallback(
    (error: unknown) => {
      if (!isPlanLimitError(error)) return null;
      const { plan, limit } = error.params;
      const text =
        isPlanId(plan) && typeof limit === 'number'
          ? t(`subscription:planLimit.${error.code}`, { count: limit, plan: t(`subscription:planLimit.plans.${plan}`) })
          : t(`errors:codes.${error.code}`);
      return <PlanLimitMessage text={text} link={t('subscription:planLimit.link')} />;
    },
    [t],
  );
}
