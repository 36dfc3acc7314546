import { usagePercent } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';

/** Spec §9: green below 70 %, yellow from 70, red from 90; width capped at 100; unlimited (-1) shows 0 and ∞. */
export function meterColour(percent: number): string {
  if (percent >= 90) return 'bg-red-500';
  if (percent >= 70) return 'bg-yellow-500';
  return 'bg-green-500';
}

export function UsageMeter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const { t } = useTranslation('subscription');
  const percent = usagePercent(used, limit);
  const limitText = limit === -1 ? '∞' : t('number', { value: limit });
  return (
    <div>
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium text-gray-700 dark:text-gray-300">{label}</span>
        <span className="text-gray-600 dark:text-gray-400">
          {t('number', { value: used })} / {limitText}
        </span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={`${used} / ${limitText}`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
      >
        <div className={clsx('h-full rounded-full', meterColour(percent))} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
