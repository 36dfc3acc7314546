import type { Proposal, ProposalDecision, ProposalLink } from '@adpilot/contracts';
import { Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useFormat } from '../../../lib/format.ts';
import { useDecideByLink, useProposalLink } from '../api/proposal-link.ts';
import { useChangeText, useValueText } from '../hooks/use-proposal-text.ts';
import { explanationLine } from '../../../lib/explanation-line.ts';

const CARD =
  'mx-auto max-w-lg rounded-xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900';

/** The words for a refused link, by its code: the link's own for 404 and 403, else the app's catalogue. */
function useRefusalText() {
  const { t } = useTranslation(['inbox', 'errors']);
  const value = useValueText();
  return (error: unknown, proposal: Proposal | undefined) => {
    if (!(error instanceof ApiError) || error.status === 0 || error.code === 'INTERNAL_ERROR')
      return t('inbox:link.failed');
    if (error.status === 404) return t('inbox:link.invalid');
    if (error.status === 403) return t('inbox:link.forbidden');
    if (error.code === 'PROPOSAL_STALE' && proposal) {
      const shown = (raw: unknown) => value(proposal, typeof raw === 'number' || typeof raw === 'string' ? raw : null);
      return t('inbox:stale', { from: shown(error.params.from), to: shown(error.params.to) });
    }
    return t(`errors:codes.${error.code}`, { defaultValue: t('inbox:link.failed') });
  };
}

/**
 * Opened from the approve or reject link of an e-mail or LINE message (`/proposals/decide?token=…`), signed in or
 * not. Opening it changes nothing: it shows the change the link would decide and one button for that decision.
 */
export function ProposalDecidePage() {
  const { t } = useTranslation('inbox');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const link = useProposalLink(token);
  const refusal = useRefusalText();

  let body;
  if (!token) body = <p role="alert">{t('link.invalid')}</p>;
  else if (link.isPending) {
    body = (
      <p className="flex items-center gap-2">
        <Spinner /> {t('link.loading')}
      </p>
    );
  } else if (link.isError) body = <p role="alert">{refusal(link.error, undefined)}</p>;
  else body = <LinkDecision token={token} link={link.data} />;

  return (
    <div className={CARD}>
      <h1 className="text-2xl font-semibold break-words text-gray-900 dark:text-gray-100">
        {link.data?.proposal.status === 'pending' ? t(`link.title.${link.data.decision}`) : t('link.title.any')}
      </h1>
      <div className="mt-6 space-y-4 text-sm text-gray-700 dark:text-gray-300">{body}</div>
    </div>
  );
}

const DONE: Record<ProposalDecision, string> = { approve: 'link.done.approve', reject: 'link.done.reject' };

function LinkDecision({ token, link }: { token: string; link: ProposalLink }) {
  const { t } = useTranslation(['inbox', 'rules']);
  const format = useFormat();
  const changeText = useChangeText();
  const refusal = useRefusalText();
  const decide = useDecideByLink(token);
  const { decision, proposal } = link;
  const why = explanationLine(proposal.explanation, t, (n) => format.number(n));
  // A server fault or a lost connection may be tried again; a refusal is final.
  const canRetry = decide.error instanceof ApiError ? decide.error.status === 0 || decide.error.status >= 500 : true;

  let outcome;
  if (decide.isSuccess) {
    outcome = (
      <p role="status" className="font-medium text-green-700 dark:text-green-400">
        {t(DONE[decision])}
      </p>
    );
  } else if (proposal.status !== 'pending') {
    outcome = (
      <p role="status" className="font-medium text-gray-900 dark:text-gray-100">
        {t(`inbox:link.closed.${proposal.status}`)}
      </p>
    );
  } else {
    outcome = (
      <div className="space-y-3">
        {decide.isError && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {refusal(decide.error, proposal)}
          </p>
        )}
        {canRetry && (
          <>
            <p>{t(`inbox:link.effect.${decision}`)}</p>
            <Button loading={decide.isPending} onClick={() => decide.mutate()}>
              {decision === 'approve' ? (
                <Check aria-hidden="true" className="size-4" />
              ) : (
                <X aria-hidden="true" className="size-4" />
              )}
              {t(`inbox:link.button.${decision}`)}
            </Button>
          </>
        )}
      </div>
    );
  }

  return (
    <>
      <p className="text-base font-medium break-words text-gray-900 dark:text-gray-100">{changeText(proposal)}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-gray-500 dark:text-gray-400">{t('inbox:link.rule')}</dt>
        <dd className="min-w-0 break-words">{proposal.ruleName}</dd>
        {proposal.entity.externalId !== proposal.target.externalId && (
          <>
            <dt className="text-gray-500 dark:text-gray-400">{t('inbox:link.entity')}</dt>
            <dd className="min-w-0 break-words">
              {t('inbox:link.entityName', {
                level: t(`inbox:levels.${proposal.entity.level}`),
                name: proposal.entity.name,
              })}
            </dd>
          </>
        )}
        {why && (
          <>
            <dt className="text-gray-500 dark:text-gray-400">{t('inbox:link.why')}</dt>
            <dd className="min-w-0 break-words">{why}</dd>
          </>
        )}
      </dl>
      {proposal.status === 'pending' && !decide.isSuccess && (
        <p className="text-xs text-gray-500 dark:text-gray-400">
          <time dateTime={proposal.expiresAt} title={format.dateTime(proposal.expiresAt)}>
            {t('inbox:expires', { when: format.timeUntil(proposal.expiresAt) })}
          </time>
        </p>
      )}
      {outcome}
    </>
  );
}
