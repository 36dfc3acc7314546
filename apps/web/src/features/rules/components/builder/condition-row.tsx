import {
  RULE_METRICS,
  RULE_OPERATORS,
  RULE_WINDOWS,
  STATE_METRICS,
  type RuleComparison,
  type RuleMetric,
} from '@adpilot/contracts';
import { Trash2 } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useController, useFormContext, useWatch, type FieldErrors, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, Options, Select } from './controls.tsx';
import { NumberBox } from './number-box.tsx';

type ValueKind = 'number' | 'range' | 'metric' | 'previous_period' | 'account' | 'campaign';
type ConditionValue = number | [number, number] | { metric: RuleMetric; factor?: number } | undefined;
type Comparison = RuleComparison | undefined;

function valueKind(value: unknown, compare: Comparison): ValueKind {
  if (compare === 'account' || compare === 'campaign') return compare;
  if (Array.isArray(value)) return 'range';
  if (compare === 'previous_period') return 'previous_period';
  return typeof value === 'object' && value !== null ? 'metric' : 'number';
}

/**
 * A part of the sentence that stays on one line when it fits: a row breaks between parts first (metric and
 * window / comparison and value / factor × metric), and inside a part only on a screen too narrow for it.
 */
function Phrase({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-end gap-x-2 gap-y-3">{children}</div>;
}

/** The word between two controls of a phrase ("×"), read as part of the sentence but not a label. */
function Joiner({ children }: { children: ReactNode }) {
  return (
    <span aria-hidden="true" className="pb-2 text-sm text-gray-600 dark:text-gray-400">
      {children}
    </span>
  );
}

interface ConditionRowProps {
  path: string;
  position: number;
  onRemove: () => void;
}

/** One condition, read as a sentence: metric · window · comparison · value (or factor × another metric). */
export function ConditionRow({ path, position, onRemove }: ConditionRowProps) {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors as FieldErrors<RuleFormValues>);
  const at = (field: string) => `${path}.${field}` as Path<RuleFormValues>;
  const metric = useWatch({ control, name: at('metric') }) as RuleMetric;
  // The value changes shape (number, [low, high], { metric, factor }): one controller owns it whole.
  const { field: valueField } = useController({ control, name: at('value') });
  const value = valueField.value as ConditionValue;
  const setValue = (next: ConditionValue) => valueField.onChange(next);
  // A relative condition (ADR 0121) carries `compare`, and `factor` against the account or the campaign.
  const { field: compareField } = useController({ control, name: at('compare') });
  const { field: factorField } = useController({ control, name: at('factor') });
  const compare = compareField.value as Comparison;
  const kind = valueKind(value, compare);
  const chooseKind = (next: ValueKind) => {
    const number = typeof value === 'number' && Number.isFinite(value) ? value : 0;
    compareField.onChange(next === 'previous_period' || next === 'account' || next === 'campaign' ? next : undefined);
    factorField.onChange(next === 'account' || next === 'campaign' ? 1.5 : undefined);
    if (next === 'metric') setValue({ metric: 'cpc', factor: 1 });
    else if (next === 'account' || next === 'campaign') setValue(undefined);
    else setValue(next === 'previous_period' ? (typeof value === 'number' ? number : 20) : number);
  };
  const valueError = errorFor(at('value'));
  const stateMetric = STATE_METRICS.has(metric);

  const changeOperator = (next: string) => {
    // `between` takes a range, every other operator one number (or another metric): the value follows its shape.
    if (next === 'between' && kind !== 'range') {
      const start = typeof value === 'number' && Number.isFinite(value) ? value : 0;
      setValue([start, start]);
    } else if (next !== 'between' && kind === 'range') {
      setValue((value as [number, number])[0]);
    }
  };

  const range = value as [number, number];
  const against = value as { metric: RuleMetric; factor?: number };

  return (
    <div
      role="group"
      aria-label={t('builder.conditionN', { n: position })}
      className="flex items-start gap-2 rounded-lg border border-gray-200 bg-gray-50 p-2 sm:p-3 dark:border-gray-700 dark:bg-gray-800/50"
    >
      <div className="flex min-w-0 flex-1 flex-wrap items-end gap-x-4 gap-y-3">
        <Phrase>
          <MiniField id={`${id}-metric`} label={t('builder.metric')} error={errorFor(at('metric'))}>
            <Select id={`${id}-metric`} invalid={Boolean(errorFor(at('metric')))} {...register(at('metric'))}>
              <Options values={RULE_METRICS} label={(item) => t(`metrics.${item}`)} />
            </Select>
          </MiniField>
          <MiniField id={`${id}-window`} label={t('builder.window')} error={errorFor(at('window'))}>
            <Select id={`${id}-window`} disabled={stateMetric} {...register(at('window'))}>
              <Options values={RULE_WINDOWS} label={(item) => t(`windows.${item}`)} />
            </Select>
          </MiniField>
          <label className="flex h-9 items-center gap-1.5 text-sm text-gray-700 dark:text-gray-300">
            <input type="checkbox" className="size-4 rounded" {...register(at('includeToday'))} />
            {t('builder.includeToday')}
          </label>
        </Phrase>
        <Phrase>
          <MiniField id={`${id}-operator`} label={t('builder.operator')} error={errorFor(at('operator'))}>
            <Select
              id={`${id}-operator`}
              {...register(at('operator'), { onChange: (event) => changeOperator(event.target.value) })}
            >
              <Options values={RULE_OPERATORS} label={(item) => t(`operators.${item}`)} />
            </Select>
          </MiniField>
          {kind === 'range' ? (
            <>
              <MiniField id={`${id}-low`} label={t('builder.low')} error={errorFor(at('value.0')) ?? valueError}>
                <NumberBox
                  id={`${id}-low`}
                  invalid={Boolean(errorFor(at('value.0')) ?? valueError)}
                  value={range[0]}
                  onValueChange={(low) => setValue([low, range[1]])}
                  onBlur={valueField.onBlur}
                />
              </MiniField>
              <MiniField id={`${id}-high`} label={t('builder.high')} error={errorFor(at('value.1'))}>
                <NumberBox
                  id={`${id}-high`}
                  invalid={Boolean(errorFor(at('value.1')))}
                  value={range[1]}
                  onValueChange={(high) => setValue([range[0], high])}
                  onBlur={valueField.onBlur}
                />
              </MiniField>
            </>
          ) : (
            <>
              <MiniField id={`${id}-kind`} label={t('builder.compareWith')}>
                <Select
                  id={`${id}-kind`}
                  value={kind}
                  onChange={(event) => chooseKind(event.target.value as ValueKind)}
                >
                  <option value="number">{t('builder.compareNumber')}</option>
                  <option value="metric">{t('builder.compareMetric')}</option>
                  {stateMetric ? null : (
                    <>
                      <option value="previous_period">{t('builder.comparePrevious')}</option>
                      <option value="account">{t('builder.compareAccount')}</option>
                      <option value="campaign">{t('builder.compareCampaign')}</option>
                    </>
                  )}
                </Select>
              </MiniField>
              {kind === 'account' || kind === 'campaign' ? (
                <Phrase>
                  <MiniField id={`${id}-factor`} label={t('builder.factor')} error={errorFor(at('factor'))}>
                    <NumberBox
                      id={`${id}-factor`}
                      invalid={Boolean(errorFor(at('factor')))}
                      value={factorField.value as number}
                      onValueChange={factorField.onChange}
                      onBlur={factorField.onBlur}
                    />
                  </MiniField>
                  <Joiner>×</Joiner>
                  <span className="pb-2 text-sm text-gray-700 dark:text-gray-300">
                    {t(kind === 'account' ? 'builder.ofAccount' : 'builder.ofCampaign')}
                  </span>
                </Phrase>
              ) : kind === 'metric' ? (
                <Phrase>
                  <MiniField id={`${id}-factor`} label={t('builder.factor')} error={errorFor(at('value.factor'))}>
                    <NumberBox
                      id={`${id}-factor`}
                      invalid={Boolean(errorFor(at('value.factor')))}
                      value={against.factor}
                      onValueChange={(factor) => setValue({ ...against, factor })}
                      onBlur={valueField.onBlur}
                    />
                  </MiniField>
                  <Joiner>×</Joiner>
                  <MiniField id={`${id}-other`} label={t('builder.otherMetric')} error={errorFor(at('value.metric'))}>
                    <Select
                      id={`${id}-other`}
                      value={against.metric}
                      onChange={(event) => setValue({ ...against, metric: event.target.value as RuleMetric })}
                    >
                      <Options values={RULE_METRICS} label={(item) => t(`metrics.${item}`)} />
                    </Select>
                  </MiniField>
                </Phrase>
              ) : (
                <MiniField
                  id={`${id}-value`}
                  label={t(kind === 'previous_period' ? 'builder.changePct' : 'builder.value')}
                  error={valueError}
                >
                  <NumberBox
                    id={`${id}-value`}
                    invalid={Boolean(valueError)}
                    value={value as number}
                    onValueChange={setValue}
                    onBlur={valueField.onBlur}
                  />
                </MiniField>
              )}
            </>
          )}
        </Phrase>
      </div>
      {/* Its own column at the row's end, so it never takes a line of its own when the sentence wraps. */}
      <Button
        size="sm"
        variant="ghost"
        className="mt-5 shrink-0 px-2"
        aria-label={t('builderA11y.removeCondition', { n: position })}
        onClick={onRemove}
      >
        <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
      </Button>
    </div>
  );
}
