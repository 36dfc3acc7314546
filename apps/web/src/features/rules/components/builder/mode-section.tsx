import { RULE_LIMITS, RULE_MODES, type RuleMode } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, Section, SmallInput } from './controls.tsx';

/**
 * What a run does with the changes it decides: write them, ask first (the Inbox), or only tell. Each choice says
 * in one line what it means; asking first shows how long a proposal waits.
 */
export function ModeSection() {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const mode = useWatch({ control, name: 'mode' }) as RuleMode;
  return (
    <Section title={t('builder.mode.title')} description={t('builder.mode.hint')}>
      <fieldset>
        <legend className="sr-only">{t('builder.mode.title')}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {RULE_MODES.map((value) => (
            <label
              key={value}
              className={clsx(
                'flex cursor-pointer gap-2 rounded-lg border p-3 text-sm',
                mode === value
                  ? 'border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-blue-950/50'
                  : 'border-gray-200 dark:border-gray-700',
              )}
            >
              <input type="radio" value={value} className="mt-0.5 size-4 shrink-0" {...register('mode')} />
              <span className="min-w-0">
                <span className="block font-medium text-gray-900 dark:text-gray-100">{t(`builder.mode.${value}`)}</span>
                <span className="block text-gray-600 dark:text-gray-400">{t(`builder.mode.${value}Hint`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'approve' && (
        <MiniField id={`${id}-hours`} label={t('builder.mode.approvalHours')} error={errorFor('approvalHours')}>
          <SmallInput
            fitted
            id={`${id}-hours`}
            type="number"
            min={RULE_LIMITS.approvalHoursMin}
            max={RULE_LIMITS.approvalHoursMax}
            step={1}
            invalid={Boolean(errorFor('approvalHours'))}
            {...register('approvalHours', { valueAsNumber: true })}
          />
        </MiniField>
      )}
    </Section>
  );
}
