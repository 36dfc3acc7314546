import {
  RULE_LIMITS,
  RULE_METRICS,
  RULE_OPERATORS,
  RULE_WINDOWS,
  STATE_METRICS,
  type RuleConditionItem,
  type RuleMetric,
} from '@adpilot/contracts';
import { FolderPlus, Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useController, useFieldArray, useFormContext, useWatch, type FieldErrors, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import { newCondition, newGroup, type RuleFormValues } from '../../lib/rule-form.ts';
import { MiniField, Options, Select } from './controls.tsx';
import { NumberBox } from './number-box.tsx';

type ItemsPath = 'conditions.items';
type ValueKind = 'number' | 'range' | 'metric';

function valueKind(value: unknown): ValueKind {
  if (Array.isArray(value)) return 'range';
  return typeof value === 'object' && value !== null ? 'metric' : 'number';
}

type ConditionValue = number | [number, number] | { metric: RuleMetric; factor?: number };

function ConditionRow({ path, position, onRemove }: { path: string; position: number; onRemove: () => void }) {
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
  const kind = valueKind(value);
  const valueError = errorFor(at('value'));

  const changeOperator = (next: string) => {
    // `between` takes a range, every other operator one number (or another metric): the value follows its shape.
    if (next === 'between' && kind !== 'range') {
      const start = typeof value === 'number' && Number.isFinite(value) ? value : 0;
      setValue([start, start]);
    } else if (next !== 'between' && kind === 'range') {
      setValue((value as [number, number])[0]);
    }
  };

  return (
    <div
      role="group"
      aria-label={t('builder.conditionN', { n: position })}
      className="grid grid-cols-2 gap-3 rounded-lg border border-gray-200 bg-gray-50 p-3 sm:grid-cols-6 dark:border-gray-700 dark:bg-gray-800/50"
    >
      <MiniField id={`${id}-metric`} label={t('builder.metric')} error={errorFor(at('metric'))}>
        <Select id={`${id}-metric`} invalid={Boolean(errorFor(at('metric')))} {...register(at('metric'))}>
          <Options values={RULE_METRICS} label={(item) => t(`metrics.${item}`)} />
        </Select>
      </MiniField>
      <MiniField id={`${id}-window`} label={t('builder.window')} error={errorFor(at('window'))}>
        <Select id={`${id}-window`} disabled={STATE_METRICS.has(metric)} {...register(at('window'))}>
          <Options values={RULE_WINDOWS} label={(item) => t(`windows.${item}`)} />
        </Select>
      </MiniField>
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
              value={(value as [number, number])[0]}
              onValueChange={(low) => setValue([low, (value as [number, number])[1]])}
              onBlur={valueField.onBlur}
            />
          </MiniField>
          <MiniField id={`${id}-high`} label={t('builder.high')} error={errorFor(at('value.1'))}>
            <NumberBox
              id={`${id}-high`}
              invalid={Boolean(errorFor(at('value.1')))}
              value={(value as [number, number])[1]}
              onValueChange={(high) => setValue([(value as [number, number])[0], high])}
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
              onChange={(event) => setValue(event.target.value === 'metric' ? { metric: 'cpc', factor: 1 } : 0)}
            >
              <option value="number">{t('builder.compareNumber')}</option>
              <option value="metric">{t('builder.compareMetric')}</option>
            </Select>
          </MiniField>
          {kind === 'metric' ? (
            <div className="grid grid-cols-2 gap-2">
              <MiniField id={`${id}-other`} label={t('builder.otherMetric')} error={errorFor(at('value.metric'))}>
                <Select
                  id={`${id}-other`}
                  value={(value as { metric: RuleMetric }).metric}
                  onChange={(event) =>
                    setValue({ ...(value as { factor?: number }), metric: event.target.value as RuleMetric })
                  }
                >
                  <Options values={RULE_METRICS} label={(item) => t(`metrics.${item}`)} />
                </Select>
              </MiniField>
              <MiniField id={`${id}-factor`} label={t('builder.factor')} error={errorFor(at('value.factor'))}>
                <NumberBox
                  id={`${id}-factor`}
                  invalid={Boolean(errorFor(at('value.factor')))}
                  value={(value as { factor?: number }).factor}
                  onValueChange={(factor) => setValue({ ...(value as { metric: RuleMetric }), factor })}
                  onBlur={valueField.onBlur}
                />
              </MiniField>
            </div>
          ) : (
            <MiniField id={`${id}-value`} label={t('builder.value')} error={valueError}>
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
      <div className="col-span-2 flex items-end justify-between gap-2 sm:col-span-1">
        <label className="flex items-center gap-1.5 pb-2 text-xs text-gray-700 dark:text-gray-300">
          <input type="checkbox" className="size-4 rounded" {...register(at('includeToday'))} />
          {t('builder.includeToday')}
        </label>
        <Button size="sm" variant="ghost" aria-label={t('builder.removeCondition')} onClick={onRemove}>
          <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
        </Button>
      </div>
    </div>
  );
}

interface GroupEditorProps {
  /** "conditions", or the path of a nested group such as "conditions.items.1". */
  path: string;
  depth: number;
  onRemove?: () => void;
}

/** One group: all/any over its items, each a condition or a nested group (at most three levels). */
export function GroupEditor({ path, depth, onRemove }: GroupEditorProps) {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors as FieldErrors<RuleFormValues>);
  const itemsPath = `${path}.items` as ItemsPath;
  const { fields, append, remove } = useFieldArray({ control, name: itemsPath });
  const itemsError = errorFor(itemsPath) ?? (depth === 1 ? errorFor('conditions') : undefined);

  return (
    <div
      role="group"
      aria-label={depth === 1 ? t('builder.conditions') : t('builder.group')}
      className={
        depth > 1 ? 'space-y-3 rounded-lg border border-dashed border-blue-300 p-3 dark:border-blue-800' : 'space-y-3'
      }
    >
      <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
        <label htmlFor={`${id}-match`}>{t('builder.matchLabel')}</label>
        <Select id={`${id}-match`} className="w-auto" {...register(`${path}.match` as Path<RuleFormValues>)}>
          <option value="all">{t('builder.matchAll')}</option>
          <option value="any">{t('builder.matchAny')}</option>
        </Select>
        {onRemove && (
          <Button size="sm" variant="ghost" className="ml-auto" onClick={onRemove}>
            <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
            {t('builder.removeGroup')}
          </Button>
        )}
      </div>
      {fields.map((field, index) => {
        const itemPath = `${itemsPath}.${index}`;
        return 'items' in (field as unknown as RuleConditionItem) ? (
          <GroupEditor key={field.id} path={itemPath} depth={depth + 1} onRemove={() => remove(index)} />
        ) : (
          <ConditionRow key={field.id} path={itemPath} position={index + 1} onRemove={() => remove(index)} />
        );
      })}
      {itemsError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {itemsError}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => append(newCondition())}>
          <Plus aria-hidden="true" className="size-4" />
          {t('builder.addCondition')}
        </Button>
        {depth < RULE_LIMITS.groupDepthMax && (
          <Button size="sm" variant="secondary" onClick={() => append(newGroup())}>
            <FolderPlus aria-hidden="true" className="size-4" />
            {t('builder.addGroup')}
          </Button>
        )}
      </div>
    </div>
  );
}
