import type { Proposal, ProposalStatus } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROPOSALS_QUERY_KEY } from '../../../api/proposals.ts';
import { Card } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { api } from '../../../lib/api-client.ts';
import { useFormat } from '../../../lib/format.ts';
import { useChangeText } from '../hooks/use-proposal-text.ts';

const CLOSED: Exclude<ProposalStatus, 'pending'>[] = ['approved', 'rejected', 'expired', 'stale'];

const BADGES: Record<Exclude<ProposalStatus, 'pending'>, string> = {
  approved: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  rejected: 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
  expired: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200',
  stale: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200',
};

/** The proposals closed with one status, newest decision first; the decisions invalidate them with the Inbox. */
function useClosedProposals(status: Exclude<ProposalStatus, 'pending'>) {
  return useQuery({
    queryKey: [...PROPOSALS_QUERY_KEY, 'history', status] as const,
    queryFn: ({ signal }) => api.get<Proposal[]>('/proposals', { signal, query: { status } }),
  });
}

/**
 * The Inbox's history: what was approved, rejected, left to expire or closed as stale, each with who decided and
 * when (an expiry and a stale close are nobody's decision).
 */
export function ProposalHistory() {
  const { t } = useTranslation('inbox');
  const format = useFormat();
  const changeText = useChangeText();
  const [status, setStatus] = useState<Exclude<ProposalStatus, 'pending'>>('approved');
  const { data, isPending, isError } = useClosedProposals(status);
  const who = (proposal: Proposal) => {
    const when = proposal.decidedAt ? format.dateTime(proposal.decidedAt) : '—';
    if (!proposal.decidedBy) return t(`history.closedAt.${status}`, { when });
    return t(`history.decidedBy.${status}`, { name: proposal.decidedBy.name ?? t('history.formerMember'), when });
  };
  return (
    <section aria-labelledby="proposal-history" className="space-y-3">
      <h2 id="proposal-history" className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        {t('history.title')}
      </h2>
      <div role="group" aria-label={t('history.filter')} className="flex flex-wrap gap-2">
        {CLOSED.map((item) => (
          <button
            key={item}
            type="button"
            aria-pressed={status === item}
            onClick={() => setStatus(item)}
            className={clsx(
              'h-9 rounded-lg px-3 text-sm font-medium',
              status === item
                ? 'bg-blue-600 text-white'
                : 'bg-gray-100 text-gray-700 hover:bg-gray-200 dark:bg-gray-800 dark:text-gray-200',
            )}
          >
            {t(`history.status.${item}`)}
          </button>
        ))}
      </div>
      {isPending ? (
        <Spinner label={t('history.loading')} />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t('history.loadFailed')}
        </p>
      ) : data.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t(`history.empty.${status}`)}</p>
      ) : (
        <Card className="p-0">
          <ul aria-label={t(`history.status.${status}`)} className="divide-y divide-gray-200 dark:divide-gray-800">
            {data.map((proposal) => (
              <li key={proposal.id} className="space-y-1 px-4 py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span
                    className={clsx(
                      'inline-flex rounded-full px-2 py-0.5 text-xs font-medium',
                      BADGES[proposal.status as keyof typeof BADGES],
                    )}
                  >
                    {t(`history.status.${status}`)}
                  </span>
                  <span className="text-sm text-gray-600 dark:text-gray-400">{proposal.ruleName}</span>
                </div>
                <p className="font-medium break-words text-gray-900 dark:text-gray-100">{changeText(proposal)}</p>
                <p className="text-xs text-gray-600 dark:text-gray-400">{who(proposal)}</p>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
