import { UPGRADE_PATH, type ErrorCode } from '@adpilot/contracts';
import { ApiError } from '../lib/api-client.ts';

/** The refusals a bigger plan lifts: wherever one shows, the way to the Subscription page shows with it. */
const PLAN_LIMIT_CODES: ReadonlySet<ErrorCode> = new Set([
  'PLAN_LIMIT_REACHED',
  'AD_ACCOUNT_LIMIT_REACHED',
  'AI_REQUEST_LIMIT_REACHED',
  'RULE_SCHEDULE_NOT_IN_PLAN',
]);

export function isPlanLimitError(error: unknown): boolean {
  return error instanceof ApiError && PLAN_LIMIT_CODES.has(error.code as ErrorCode);
}

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
