import type { Rule, RuleBody } from '@adpilot/contracts';
import { Eye, RotateCcw, Save } from 'lucide-react';
import { useEffect, useId } from 'react';
import { FormProvider, useForm, type Path } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { setServerErrors } from '../../../../lib/form-errors.ts';
import { ApiError } from '../../../../lib/api-client.ts';
import { usePreviewRule } from '../../api/preview-rule.ts';
import { useSaveRule } from '../../api/save-rule.ts';
import { useApiErrorText } from '../../hooks/use-api-error-text.ts';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import { useWords } from '../../hooks/use-words.ts';
import { normalizeRule, ruleResolver, type RuleFormValues } from '../../lib/rule-form-values.ts';
import { warningText } from '../../lib/explain.ts';
import { PreviewResult } from '../preview-panel.tsx';
import { RuleSummaryCard } from './rule-summary.tsx';
import { ActionsEditor } from './actions-editor.tsx';
import { GroupEditor } from './conditions-editor.tsx';
import { Section } from './controls.tsx';
import { ModeSection } from './mode-section.tsx';
import { SafeguardsSection, ScheduleSection } from './schedule-safeguards.tsx';
import { ScopeSection } from './scope-section.tsx';
import { usePlanLimitNotice } from '../../../../components/plan-limit.tsx';

interface RuleFormProps {
  initial: RuleFormValues;
  /** The stored rule when editing; absent for a new one. */
  rule?: Rule;
  onRestart?: () => void;
}

/** The server's field errors under the fields they name (their paths are the form's own). */
function serverFields(error: unknown): Path<RuleFormValues>[] {
  return error instanceof ApiError ? error.errors.map((item) => item.field as Path<RuleFormValues>) : [];
}

export function RuleForm({ initial, rule, onRestart }: RuleFormProps) {
  const { t } = useTranslation('rules');
  const words = useWords();
  const id = useId();
  const formId = `${id}-form`;
  const navigate = useNavigate();
  const errorText = useApiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const save = useSaveRule(rule?.id);
  const preview = usePreviewRule();
  const form = useForm<RuleFormValues, unknown, RuleBody>({
    resolver: ruleResolver,
    defaultValues: initial,
    // Live validation: after the first attempt, every change is checked again at once.
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, setError, formState, watch, trigger } = form;
  const errorFor = useRuleError(formState.errors);

  // Once the user has tried to save, every change re-checks the whole rule: some checks span fields (a budget
  // action and the level, a floor and its ceiling) and must clear or appear when either side changes.
  useEffect(() => {
    const subscription = watch(() => {
      if (form.formState.isSubmitted) void trigger();
    });
    return () => subscription.unsubscribe();
  }, [watch, trigger, form.formState]);

  const onSave = handleSubmit(async (body) => {
    try {
      const saved = await save.mutateAsync(normalizeRule(body));
      toast.success(t(rule ? 'builder.updated' : 'builder.created', { name: saved.name }));
      void navigate(`/rules/${saved.id}`);
    } catch (error) {
      setServerErrors(error, setError, serverFields(error));
      toast.error(planLimit(error) ?? errorText(error, t('builder.saveFailed')));
    }
  });

  const onPreview = handleSubmit((body) => {
    preview.mutate(
      { body: normalizeRule(body) },
      {
        onError: (error) => {
          setServerErrors(error, setError, serverFields(error));
          toast.error(planLimit(error) ?? errorText(error, t('builder.previewFailed')));
        },
      },
    );
  });

  return (
    <FormProvider {...form}>
      {/*
        Wide screens: the form, and beside it a column that stays in view with the rule in words, the buttons and
        the preview. Narrow screens: the same column below the form. Nothing stands empty (ADR 0057).
      */}
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(20rem,26rem)]">
        <form
          id={formId}
          onSubmit={onSave}
          noValidate
          className="min-w-0 space-y-6"
          aria-label={t('builder.formLabel')}
        >
          {rule && rule.warnings.length > 0 && (
            <ul className="space-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
              {rule.warnings.map((warning, index) => (
                <li key={index}>{warningText(warning, words)}</li>
              ))}
            </ul>
          )}
          <Section title={t('builder.basics')}>
            <Field id={`${id}-name`} label={t('builder.name')} error={errorFor('name')}>
              <Input id={`${id}-name`} invalid={Boolean(errorFor('name'))} {...register('name')} />
            </Field>
            <Field id={`${id}-description`} label={t('builder.description')} error={errorFor('description')}>
              <Input id={`${id}-description`} invalid={Boolean(errorFor('description'))} {...register('description')} />
            </Field>
            <label className="flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
              <input type="checkbox" className="size-4 rounded" {...register('isActive')} />
              {t('builder.isActive')}
            </label>
          </Section>
          <ScopeSection />
          <Section title={t('builder.conditions')} description={t('builder.conditionsHint')}>
            <GroupEditor path="conditions" depth={1} />
          </Section>
          <ActionsEditor />
          <ModeSection />
          <ScheduleSection isNew={!rule} />
          <SafeguardsSection />
        </form>
        <div
          data-testid="rule-review"
          className="min-w-0 space-y-4 xl:sticky xl:top-8 xl:max-h-[calc(100dvh-4rem)] xl:self-start xl:overflow-y-auto xl:p-1"
        >
          <RuleSummaryCard>
            {/* Outside the form element but its buttons all the same (`form`), so Enter in a field still saves. */}
            <Button type="submit" form={formId} loading={save.isPending}>
              {!save.isPending && <Save aria-hidden="true" className="size-4" />}
              {rule ? t('builder.saveChanges') : t('builder.create')}
            </Button>
            <Button variant="secondary" onClick={() => void onPreview()} loading={preview.isPending}>
              {!preview.isPending && <Eye aria-hidden="true" className="size-4" />}
              {t('builder.preview')}
            </Button>
            {onRestart && (
              <Button variant="ghost" onClick={onRestart}>
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('builder.restart')}
              </Button>
            )}
          </RuleSummaryCard>
          <aside aria-label={t('preview.title')}>
            <Section title={t('preview.title')} description={t('preview.hint')}>
              {preview.data ? (
                <PreviewResult preview={preview.data} />
              ) : (
                <p className="text-sm text-gray-600 dark:text-gray-400">{t('preview.empty')}</p>
              )}
            </Section>
          </aside>
        </div>
      </div>
    </FormProvider>
  );
}
