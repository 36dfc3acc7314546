import { usagePercent } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';

/**
 * A meter's colour (ADR 0186): green below 90 % of the plan's limit, amber from 90 % up to a full bar (a plan used
 * as far as it goes is full, not an error: one ad account of one), red only past the limit (after a downgrade) or,
 * for a monthly allowance (`blocksAtLimit`, the AI requests), once it is spent and requests are refused. Width capped
 * at 100; unlimited (-1) shows an empty green bar and ∞ (spec §9).
 */
export function meterColour(used: number, limit: number, blocksAtLimit = false): string {
  if (limit === -1) return 'bg-green-500';
  if (used > limit || (blocksAtLimit && used >= limit)) return 'bg-red-500';
  if (usagePercent(used, limit) >= 90) return 'bg-amber-500';
  return 'bg-green-500';
}

export function UsageMeter({
  label,
  used,
  limit,
  blocksAtLimit = false,
}: {
  label: string;
  used: number;
  limit: number;
  /** A monthly allowance: spent, it refuses (red); a capacity at its limit is only full (amber). */
  blocksAtLimit?: boolean;
}) {
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
        <div
          className={clsx('h-full rounded-full', meterColour(used, limit, blocksAtLimit))}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
