import type { EntityActionType } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useMutation } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { parentTrail } from '../../../api/entities.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { previewEntityActions, useEntityActions } from '../api/entities.ts';
import type { EntityActionResult, EntityRow } from '../api/types.ts';
import { useEntityWords } from '../hooks/use-entity-words.ts';
import { actionItem, parseValue, type BudgetChange, type ChangeBy } from '../lib/budget-change.ts';

export type DialogAction = 'pause' | 'resume' | 'budget';

interface ActionDialogProps {
  action: DialogAction | null;
  entities: readonly EntityRow[];
  onClose: () => void;
  /** After the change was sent (the selection can be cleared). */
  onDone?: () => void;
}

type BudgetType = BudgetChange['type'];
const BUDGET_TYPES: readonly BudgetType[] = ['increase_budget', 'decrease_budget', 'set_budget'];

const SELECT =
  'mt-1 h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

/**
 * Acting by hand on one row or a selection (ADR 0108): for a budget, the change is chosen first; then the server's
 * dry run shows each row's from → to read live (or why it would be skipped), one confirmation sends them all, and
 * the outcome of each is listed. The ledger writes each at most once and logs the person as the actor.
 */
export function ActionDialog({ action, entities, onClose, onDone }: ActionDialogProps) {
  const words = useEntityWords();
  const { t } = words;
  const serverMessage = useServerMessage();
  const formId = useId();
  const [step, setStep] = useState<'choose' | 'review' | 'done'>('choose');
  const [budgetType, setBudgetType] = useState<BudgetType>('increase_budget');
  const [by, setBy] = useState<ChangeBy>('percent');
  const [raw, setRaw] = useState('');
  const [touched, setTouched] = useState(false);
  const preview = useMutation({ mutationFn: previewEntityActions });
  const apply = useEntityActions();

  const currencies = new Set(entities.map((entity) => entity.currency));
  const oneCurrency = currencies.size === 1 ? [...currencies][0] : null;
  // An amount means the same figure in every row's own currency: only offered when they share one.
  const effectiveBy: ChangeBy = budgetType === 'set_budget' ? 'amount' : oneCurrency ? by : 'percent';
  const value = parseValue(raw);
  const type: EntityActionType = action === 'budget' ? budgetType : (action ?? 'pause');
  const items = () =>
    entities.map((entity) =>
      actionItem(
        entity.id,
        type,
        action === 'budget' ? { type: budgetType, by: effectiveBy, value: value ?? 0 } : undefined,
      ),
    );

  const review = () => {
    setStep('review');
    preview.mutate(items());
  };

  // Pause and resume have nothing to choose: the dialog opens on their review.
  useEffect(() => {
    if (action === null) return;
    setStep(action === 'budget' ? 'choose' : 'review');
    setRaw('');
    setTouched(false);
    preview.reset();
    apply.reset();
    if (action !== 'budget') preview.mutate(items());
    // Opening the dialog starts it afresh; its inputs are read from the state of that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action]);

  const byId = new Map(entities.map((entity) => [entity.id, entity]));
  const willApply = (preview.data ?? []).filter((result) => result.outcome === 'would_apply');
  const count = entities.length;
  const title =
    action === 'budget' ? t('dialog.title.budget', { count }) : t(`dialog.title.${action ?? 'pause'}`, { count });

  const send = () => {
    const chosen = new Set(willApply.map((result) => result.entityId));
    apply.mutate(
      items().filter((item) => chosen.has(item.entityId)),
      {
        onSuccess: (results) => {
          setStep('done');
          const applied = results.filter((result) => result.outcome !== 'refused').length;
          toast.success(t('dialog.summary', { applied, refused: results.length - applied }));
          onDone?.();
        },
        onError: (error) => toast.error(serverMessage(error, t('dialog.failed'))),
      },
    );
  };

  const valueShown = (result: EntityActionResult, raw: string | number | null) => {
    if (raw === null) return '—';
    if (typeof raw === 'string') return words.status(raw);
    return words.format.money(raw, result.currency ?? byId.get(result.entityId)?.currency ?? 'USD');
  };

  const resultList = (results: readonly EntityActionResult[], done: boolean) => (
    <ul className="divide-y divide-gray-200 dark:divide-gray-700" aria-label={done ? t('dialog.outcomeTitle') : title}>
      {results.map((result) => {
        const entity = byId.get(result.entityId);
        const ok = result.outcome === 'applied' || result.outcome === 'would_apply' || result.outcome === 'proposed';
        return (
          <li key={result.entityId} className="flex items-start gap-2 py-2">
            {ok ? (
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-600 dark:text-green-400" />
            ) : (
              <X aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
            )}
            <div className="min-w-0 flex-1">
              <p className="font-medium break-words text-gray-900 dark:text-gray-100">
                {entity?.name ?? result.entityId}
              </p>
              {entity && parentTrail(entity.parents).length > 0 && (
                <p className="text-xs break-words text-gray-500 dark:text-gray-400">
                  {parentTrail(entity.parents).join(' › ')}
                </p>
              )}
              {ok ? (
                <p className="flex flex-wrap items-center gap-1 tabular-nums">
                  <span className="sr-only">
                    {result.outcome === 'applied'
                      ? t('dialog.applied')
                      : result.outcome === 'proposed'
                        ? t('dialog.proposed')
                        : t('dialog.wouldApply')}
                    :{' '}
                  </span>
                  <span>{valueShown(result, result.from)}</span>
                  <span>→</span>
                  <span className="font-medium text-gray-900 dark:text-gray-100">{valueShown(result, result.to)}</span>
                  {result.outcome === 'proposed' && <span className="text-xs">({t('dialog.proposed')})</span>}
                </p>
              ) : (
                <p className="text-gray-600 dark:text-gray-400">
                  {done ? t('dialog.refused') : t('dialog.wontApply')}: {words.refusal(result.code)}
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );

  const invalid = touched && value === null;
  const footer =
    step === 'choose' ? (
      <>
        <Button variant="secondary" onClick={onClose}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" form={formId}>
          {t('dialog.review')}
        </Button>
      </>
    ) : step === 'review' ? (
      <>
        {action === 'budget' && (
          <Button variant="ghost" onClick={() => setStep('choose')} disabled={apply.isPending}>
            {t('dialog.back')}
          </Button>
        )}
        <Button variant="secondary" onClick={onClose} disabled={apply.isPending}>
          {t('dialog.cancel')}
        </Button>
        <Button
          variant={action === 'pause' ? 'danger' : 'primary'}
          onClick={send}
          loading={apply.isPending}
          disabled={preview.isPending || willApply.length === 0}
        >
          {t(`dialog.confirm.${action ?? 'pause'}`)}
        </Button>
      </>
    ) : (
      <Button onClick={onClose}>{t('dialog.close')}</Button>
    );

  return (
    <Modal
      open={action !== null}
      onClose={() => {
        if (!apply.isPending) onClose();
      }}
      title={step === 'done' ? t('dialog.outcomeTitle') : title}
      closeLabel={t('dialog.close')}
      footer={footer}
    >
      <div className="space-y-4 text-sm text-gray-700 dark:text-gray-300">
        {step === 'choose' && (
          <form
            id={formId}
            className="grid gap-3 sm:grid-cols-2"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setTouched(true);
              if (value !== null) review();
            }}
          >
            <div className="sm:col-span-2">
              <label htmlFor={`${formId}-type`} className="font-medium">
                {t('dialog.change')}
              </label>
              <select
                id={`${formId}-type`}
                className={SELECT}
                value={budgetType}
                onChange={(event) => setBudgetType(event.target.value as BudgetType)}
              >
                {BUDGET_TYPES.filter((option) => option !== 'set_budget' || oneCurrency).map((option) => (
                  <option key={option} value={option}>
                    {t(`actionTypes.${option}`)}
                  </option>
                ))}
              </select>
            </div>
            {budgetType !== 'set_budget' && (
              <fieldset className="sm:col-span-2">
                <legend className="font-medium">{t('dialog.by')}</legend>
                <div className="mt-1 flex gap-4">
                  {(['percent', 'amount'] as const).map((option) => (
                    <label key={option} className="inline-flex items-center gap-2">
                      <input
                        type="radio"
                        name={`${formId}-by`}
                        value={option}
                        checked={effectiveBy === option}
                        disabled={option === 'amount' && !oneCurrency}
                        onChange={() => setBy(option)}
                      />
                      {t(option === 'percent' ? 'dialog.byPercent' : 'dialog.byAmount')}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <div className="sm:col-span-2">
              <label htmlFor={`${formId}-value`} className="font-medium">
                {budgetType === 'set_budget'
                  ? t('dialog.newBudget')
                  : effectiveBy === 'percent'
                    ? t('dialog.valuePercent')
                    : t('dialog.valueAmount')}
                {effectiveBy === 'amount' && oneCurrency
                  ? ` (${oneCurrency})`
                  : effectiveBy === 'percent'
                    ? ' (%)'
                    : ''}
              </label>
              <input
                id={`${formId}-value`}
                inputMode="decimal"
                autoComplete="off"
                className={clsx(SELECT, invalid && 'border-red-600 dark:border-red-400')}
                value={raw}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? `${formId}-error` : undefined}
                onChange={(event) => setRaw(event.target.value)}
                onBlur={() => setTouched(true)}
              />
              {invalid && (
                <p id={`${formId}-error`} role="alert" className="mt-1 text-red-700 dark:text-red-400">
                  {t('dialog.invalid')}
                </p>
              )}
            </div>
          </form>
        )}
        {step === 'review' && (
          <>
            <p>{t('dialog.liveNote')}</p>
            {preview.isPending ? (
              <div className="flex items-center gap-2">
                <Spinner size="sm" label={t('dialog.checking')} />
                <span>{t('dialog.checking')}</span>
              </div>
            ) : preview.isError ? (
              <p role="alert" className="text-red-700 dark:text-red-400">
                {serverMessage(preview.error, t('dialog.failed'))}
              </p>
            ) : (
              <>
                {resultList(preview.data ?? [], false)}
                {willApply.length === 0 && <p role="status">{t('dialog.nothing')}</p>}
              </>
            )}
          </>
        )}
        {step === 'done' && apply.data && (
          <>
            <p role="status">
              {t('dialog.summary', {
                applied: apply.data.filter((result) => result.outcome !== 'refused').length,
                refused: apply.data.filter((result) => result.outcome === 'refused').length,
              })}
            </p>
            {resultList(apply.data, true)}
          </>
        )}
      </div>
    </Modal>
  );
}
