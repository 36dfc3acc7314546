import { CheckCircle2, Rocket } from 'lucide-react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useAiUsage, useJoinWaitlist } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';

/** Spec §2: Coming Soon, and Join Waitlist, which records the user's interest once and says so. */
export function AutomationTab() {
  const { t } = useTranslation('ai-studio');
  const errorText = useAiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const usage = useAiUsage();
  const join = useJoinWaitlist();
  const joined = usage.data?.waitlistJoined ?? false;

  const onJoin = () =>
    join.mutate(undefined, {
      onSuccess: (answer) =>
        toast.success(t(answer.alreadyJoined ? 'automation.alreadyToast' : 'automation.joinedToast')),
      onError: (error) => toast.error(planLimit(error) ?? errorText(error, t('automation.failed'))),
    });

  return (
    <div className="flex flex-col items-center gap-4 py-10 text-center">
      <Rocket aria-hidden="true" className="size-10 text-blue-600 dark:text-blue-400" />
      <h2 className="text-xl font-semibold text-gray-900 dark:text-gray-100">{t('automation.title')}</h2>
      <p className="max-w-md text-sm text-gray-600 dark:text-gray-400">{t('automation.text')}</p>
      {joined ? (
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-green-700 dark:text-green-400">
          <CheckCircle2 aria-hidden="true" className="size-4" />
          {t('automation.joined')}
        </p>
      ) : (
        <Button onClick={onJoin} loading={join.isPending} disabled={usage.isPending}>
          {t('automation.join')}
        </Button>
      )}
    </div>
  );
}
