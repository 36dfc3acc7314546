import type { Proposal } from '@adpilot/contracts';
import { Check, Inbox, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePendingProposals } from '../../../api/proposals.ts';
import { useCan } from '../../../api/workspaces.ts';
import { EntityLine } from '../../../components/entity-line.tsx';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PageSpinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useFormat } from '../../../lib/format.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useDecideProposal, type Decision } from '../api/decide-proposal.ts';
import { useChangeText, useValueText } from '../hooks/use-proposal-text.ts';
import { explanationLine } from '../../../lib/explanation-line.ts';
import { ProposalHistory } from './proposal-history.tsx';

/**
 * The proposals of one run (approved one by one, or all at once), or of one person or agent proposing by hand
 * (no run: one by one).
 */
interface RunGroup {
  key: string;
  runId: string | null;
  title: string;
  proposals: Proposal[];
}

function byRun(proposals: readonly Proposal[]): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  for (const proposal of proposals) {
    const key = proposal.runId ?? `${proposal.actor.type}:${proposal.actor.id ?? ''}`;
    const title = proposal.ruleName ?? proposal.actor.name ?? '';
    const group = groups.get(key) ?? { key, runId: proposal.runId, title, proposals: [] };
    group.proposals.push(proposal);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The Inbox: what approve-mode rules propose, waiting for a person. Approving changes the live ad, so each approval
 * is confirmed with the change in words; a viewer sees the list without the buttons.
 */
export function InboxPage() {
  const { t } = useTranslation(['inbox', 'rules']);
  const format = useFormat();
  const canDecide = useCan('editor');
  const { data, isPending, isError } = usePendingProposals();
  const decide = useDecideProposal();
  const serverMessage = useServerMessage();
  const changeText = useChangeText();
  const value = useValueText();
  const [asked, setAsked] = useState<{ decision: Decision; proposals: Proposal[] } | null>(null);
  // The outcome of the last decision, said above the list: a toast in the corner would lie over the next row's
  // Approve, where the eye and the pointer go next.
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const refused = (error: unknown, proposal: Proposal | undefined) => {
    if (error instanceof ApiError && error.code === 'PROPOSAL_STALE' && proposal) {
      const shown = (raw: unknown) => value(proposal, typeof raw === 'number' || typeof raw === 'string' ? raw : null);
      return t('inbox:stale', { from: shown(error.params.from), to: shown(error.params.to) });
    }
    return serverMessage(error, t('inbox:failed'));
  };

  const run = (decision: Decision, proposals: Proposal[]) => {
    decide.mutate(decision, {
      onSuccess: () => {
        setAsked(null);
        setOutcome({
          ok: true,
          text: decision.kind === 'reject' ? t('inbox:rejected') : t('inbox:approved', { count: proposals.length }),
        });
      },
      onError: (error) => {
        setAsked(null);
        setOutcome({ ok: false, text: refused(error, proposals[0]) });
      },
    });
  };

  return (
    <div className="space-y-6">
      <PageHeader title={t('inbox:title')} description={t('inbox:description')} />
      <ReadOnlyNotice text={t('inbox:readOnly')} />
      <div role="status" aria-live="polite">
        {outcome?.ok && (
          <p className="rounded-lg border border-green-200 bg-green-50 px-4 py-2 text-sm text-green-900 dark:border-green-900 dark:bg-green-950/40 dark:text-green-200">
            {outcome.text}
          </p>
        )}
      </div>
      <div role="alert">
        {outcome && !outcome.ok && (
          <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
            {outcome.text}
          </p>
        )}
      </div>
      {isPending ? (
        <PageSpinner label={t('inbox:loading')} />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t('inbox:loadFailed')}
        </p>
      ) : data.length === 0 ? (
        <Card className="flex flex-col items-center gap-2 p-8 text-center">
          <Inbox aria-hidden="true" className="size-8 text-gray-400" />
          <p className="font-medium text-gray-900 dark:text-gray-100">{t('inbox:empty')}</p>
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('inbox:emptyHint')}</p>
        </Card>
      ) : (
        byRun(data).map((group) => (
          <Card key={group.key} className="p-0">
            <section aria-label={group.title}>
              <header className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-200 px-4 py-3 dark:border-gray-800">
                <div className="min-w-0">
                  <h2 className="font-semibold break-words text-gray-900 dark:text-gray-100">{group.title}</h2>
                  <p className="text-xs text-gray-600 dark:text-gray-400">
                    {t('inbox:proposedAt', { when: format.dateTime(group.proposals[0]?.createdAt ?? Date.now()) })}
                  </p>
                </div>
                {canDecide && group.runId !== null && group.proposals.length > 1 && (
                  <Button
                    size="sm"
                    onClick={() =>
                      group.runId !== null &&
                      setAsked({ decision: { kind: 'all', runId: group.runId }, proposals: group.proposals })
                    }
                  >
                    <Check aria-hidden="true" className="size-4" />
                    {t('inbox:approveAll', { count: group.proposals.length })}
                  </Button>
                )}
              </header>
              <ul className="divide-y divide-gray-200 dark:divide-gray-800">
                {group.proposals.map((proposal) => (
                  <li key={proposal.id} className="flex flex-col gap-3 px-4 py-3 md:flex-row md:items-start">
                    <div className="min-w-0 flex-1 space-y-1">
                      <p className="font-medium break-words text-gray-900 dark:text-gray-100">{changeText(proposal)}</p>
                      <EntityLine entity={proposal.entity} />
                      {proposal.entity.externalId !== proposal.target.externalId && (
                        <p className="text-sm break-words text-gray-600 dark:text-gray-400">
                          {t('inbox:forEntity', {
                            level: t(`inbox:levels.${proposal.entity.level}`),
                            name: proposal.entity.name,
                          })}
                        </p>
                      )}
                      <p className="text-sm break-words text-gray-600 dark:text-gray-400">
                        {explanationLine(proposal.explanation, t, (n) => format.number(n))}
                      </p>
                      <p className="text-xs text-gray-500 dark:text-gray-400">
                        <time dateTime={proposal.expiresAt} title={format.dateTime(proposal.expiresAt)}>
                          {t('inbox:expires', { when: format.timeUntil(proposal.expiresAt) })}
                        </time>
                      </p>
                    </div>
                    {canDecide && (
                      <div className="flex shrink-0 gap-2">
                        <Button
                          size="sm"
                          onClick={() =>
                            setAsked({ decision: { kind: 'approve', id: proposal.id }, proposals: [proposal] })
                          }
                        >
                          <Check aria-hidden="true" className="size-4" />
                          {t('inbox:approve')}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          loading={
                            decide.isPending &&
                            decide.variables.kind === 'reject' &&
                            decide.variables.id === proposal.id
                          }
                          onClick={() => run({ kind: 'reject', id: proposal.id }, [proposal])}
                        >
                          <X aria-hidden="true" className="size-4" />
                          {t('inbox:reject')}
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          </Card>
        ))
      )}
      <ProposalHistory />
      <ConfirmDialog
        open={asked !== null}
        title={t('inbox:confirmTitle', { count: asked?.proposals.length ?? 1 })}
        message={
          <div className="space-y-2">
            <p>{t('inbox:confirmMessage', { count: asked?.proposals.length ?? 1 })}</p>
            <ul className="list-disc space-y-1 pl-5">
              {asked?.proposals.map((proposal) => (
                <li key={proposal.id}>{changeText(proposal)}</li>
              ))}
            </ul>
          </div>
        }
        confirmLabel={t('inbox:confirm', { count: asked?.proposals.length ?? 1 })}
        cancelLabel={t('inbox:cancel')}
        closeLabel={t('inbox:cancel')}
        busy={decide.isPending}
        onConfirm={() => asked && run(asked.decision, asked.proposals)}
        onCancel={() => setAsked(null)}
      />
    </div>
  );
}
