import { RULE_LIMITS, type DaypartWindow } from '@adpilot/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useFormat } from '../../../../lib/format.ts';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, SmallInput } from './controls.tsx';

const WEEK = [1, 2, 3, 4, 5, 6, 7] as const;

/** A new window: weekday office hours, the template's too. */
export const DEFAULT_WINDOW: DaypartWindow = { days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' };

/**
 * The dayparting windows of a schedule (ADR 0127): per window its weekdays and its hours, in each ad account's time
 * zone. "To" is typed, not picked, so a window can end at 24:00.
 */
export function ScheduleWindows() {
  const { t } = useTranslation('rules');
  const { weekday } = useFormat();
  const id = useId();
  const { register, control, setValue, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const windows = (useWatch({ control, name: 'schedule.windows' }) ?? []) as DaypartWindow[];
  const write = (next: DaypartWindow[]) =>
    setValue('schedule', { windows: next }, { shouldDirty: true, shouldValidate: true });
  const toggleDay = (index: number, day: number) =>
    write(
      windows.map((window, at) =>
        at !== index
          ? window
          : {
              ...window,
              days: window.days.includes(day)
                ? window.days.filter((other) => other !== day)
                : [...window.days, day].sort((a, b) => a - b),
            },
      ),
    );
  const listError = errorFor('schedule.windows');

  return (
    <div className="space-y-3">
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('builder.windowsHint')}</p>
      {windows.map((window, index) => {
        const at = `schedule.windows.${index}` as const;
        const daysError = errorFor(`${at}.days`);
        return (
          <div
            key={index}
            className="flex flex-wrap items-start gap-4 rounded-lg border border-gray-200 p-3 dark:border-gray-800"
          >
            <fieldset>
              <legend className="text-xs font-medium text-gray-600 dark:text-gray-400">
                {t('builder.windowDays')}
              </legend>
              <div className="mt-1 flex flex-wrap gap-2">
                {WEEK.map((day) => (
                  <label key={day} className="inline-flex items-center gap-1 text-sm text-gray-800 dark:text-gray-200">
                    <input type="checkbox" checked={window.days.includes(day)} onChange={() => toggleDay(index, day)} />
                    {weekday(day)}
                  </label>
                ))}
              </div>
              {daysError && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{daysError}</p>}
            </fieldset>
            <MiniField id={`${id}-${index}-from`} label={t('builder.windowFrom')} error={errorFor(`${at}.from`)}>
              <SmallInput
                fitted
                id={`${id}-${index}-from`}
                placeholder="08:00"
                inputMode="numeric"
                invalid={Boolean(errorFor(`${at}.from`))}
                {...register(`${at}.from`)}
              />
            </MiniField>
            <MiniField id={`${id}-${index}-to`} label={t('builder.windowTo')} error={errorFor(`${at}.to`)}>
              <SmallInput
                fitted
                id={`${id}-${index}-to`}
                placeholder="20:00"
                inputMode="numeric"
                invalid={Boolean(errorFor(`${at}.to`))}
                {...register(`${at}.to`)}
              />
            </MiniField>
            {windows.length > 1 && (
              <Button
                size="sm"
                variant="ghost"
                className="mt-5 shrink-0 px-2"
                aria-label={t('builder.removeWindow')}
                onClick={() => write(windows.filter((_, other) => other !== index))}
              >
                <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
              </Button>
            )}
          </div>
        );
      })}
      {listError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {listError}
        </p>
      )}
      {windows.length < RULE_LIMITS.windowsMax && (
        <Button size="sm" variant="secondary" onClick={() => write([...windows, { ...DEFAULT_WINDOW }])}>
          <Plus aria-hidden="true" className="size-4" />
          {t('builder.addWindow')}
        </Button>
      )}
    </div>
  );
}
