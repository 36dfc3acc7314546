import type { EntityActionResult, SuggestedChange } from '@adpilot/contracts';
import { Check, Inbox } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { useFormat } from '../../../lib/format.ts';
import { useConfirmSuggestion } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';

/** A status or a budget as the reader reads it. */
function useValueText() {
  const { t } = useTranslation('ai-studio');
  const format = useFormat();
  return (value: string | number, currency: string | null) =>
    typeof value === 'number'
      ? currency
        ? format.money(value, currency)
        : format.number(value)
      : t(`suggestions.status.${value}`, { defaultValue: value });
}

function Outcome({ result }: { result: EntityActionResult }) {
  const { t } = useTranslation(['ai-studio', 'campaigns']);
  const text =
    result.outcome === 'applied'
      ? t('suggestions.applied')
      : result.outcome === 'proposed'
        ? t('suggestions.proposed')
        : t('suggestions.refused', {
            reason: t(`campaigns:refusals.${result.code ?? 'generic'}`, {
              defaultValue: t('campaigns:refusals.generic'),
            }),
          });
  return (
    <p
      role="status"
      data-outcome={result.outcome}
      className={
        result.outcome === 'refused'
          ? 'text-sm text-red-700 dark:text-red-400'
          : 'text-sm text-green-700 dark:text-green-400'
      }
    >
      {text}
      {result.outcome === 'proposed' && (
        <>
          {' '}
          <Link to="/inbox" className="underline underline-offset-2">
            {t('suggestions.openInbox')}
          </Link>
        </>
      )}
    </p>
  );
}

function SuggestionItem({ suggestion, canWrite }: { suggestion: SuggestedChange; canWrite: boolean }) {
  const { t } = useTranslation('ai-studio');
  const valueText = useValueText();
  const errorText = useAiErrorText();
  const confirm = useConfirmSuggestion();
  // One key per suggestion shown: a second click, or a retry after a lost answer, finds the first change.
  const [key] = useState(() => `ai-${crypto.randomUUID()}`);
  const [result, setResult] = useState<EntityActionResult | null>(null);
  const send = (propose: boolean) =>
    confirm.mutate(
      { suggestion, propose, key: `${key}-${propose ? 'propose' : 'apply'}` },
      {
        onSuccess: setResult,
        onError: (error) => toast.error(errorText(error, t('suggestions.failed'))),
      },
    );
  return (
    <li className="rounded-md border border-gray-200 p-3 dark:border-gray-700" data-testid="ai-suggestion">
      <p className="text-sm font-medium text-gray-900 dark:text-gray-100">
        {t(`suggestions.type.${suggestion.change.type}`)}{' '}
        <Link to={suggestion.href} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
          {suggestion.name}
        </Link>
      </p>
      <p className="mt-1 text-sm text-gray-800 dark:text-gray-200" data-testid="ai-suggestion-change">
        {t(`suggestions.field.${suggestion.field}`)}:{' '}
        <span className="font-medium">{valueText(suggestion.from, suggestion.currency)}</span>
        {' → '}
        <span className="font-medium">{valueText(suggestion.to, suggestion.currency)}</span>
      </p>
      <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">{suggestion.reason}</p>
      <div className="mt-2">
        {result ? (
          <Outcome result={result} />
        ) : canWrite ? (
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" loading={confirm.isPending} onClick={() => send(false)}>
              <Check aria-hidden="true" className="size-4" />
              {t('suggestions.confirm')}
            </Button>
            <Button type="button" size="sm" variant="secondary" disabled={confirm.isPending} onClick={() => send(true)}>
              <Inbox aria-hidden="true" className="size-4" />
              {t('suggestions.propose')}
            </Button>
          </div>
        ) : (
          <p className="text-xs text-gray-600 dark:text-gray-400">{t('suggestions.readOnly')}</p>
        )}
      </div>
    </li>
  );
}

/**
 * The changes an answer suggests (issue 29, ADR 0156): each with from → to and its reason; nothing is changed until
 * the person confirms it here, which sends it to the explorer's manual actions as themselves (written through the
 * ledger, or left in the Inbox). Read-only members see them without the buttons.
 */
export function SuggestedChanges({ suggestions, canWrite }: { suggestions: SuggestedChange[]; canWrite: boolean }) {
  const { t } = useTranslation('ai-studio');
  if (suggestions.length === 0) return null;
  return (
    <section className="mt-3 border-t border-gray-200 pt-2 dark:border-gray-700" aria-label={t('suggestions.title')}>
      <p className="text-xs font-medium text-gray-600 dark:text-gray-400">{t('suggestions.title')}</p>
      <ul className="mt-2 space-y-2">
        {suggestions.map((suggestion) => (
          <SuggestionItem key={suggestion.change.entityId} suggestion={suggestion} canWrite={canWrite} />
        ))}
      </ul>
    </section>
  );
}
