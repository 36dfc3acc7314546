import { HACK_PLATFORMS, type AlgorithmHack, type HackPlatform } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAiUsage, useAlgorithmHacks } from '../api/ai.ts';
import { LABEL, SELECT } from './styles.ts';

/** Spec §3: low and medium as given, anything else treated as high. */
const RISK: Record<string, string> = {
  low: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300',
  medium: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900/40 dark:text-yellow-300',
  high: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-300',
};
const riskOf = (hack: AlgorithmHack) =>
  hack.riskLevel === 'low' || hack.riskLevel === 'medium' ? hack.riskLevel : 'high';

/** Spec §2/§4: fetched only while this tab is open (it is only mounted then), again on each platform. */
export function HacksTab() {
  const { t } = useTranslation('ai-studio');
  const id = useId();
  const [platform, setPlatform] = useState<HackPlatform>('facebook');
  const usage = useAiUsage();
  const hacks = useAlgorithmHacks(platform, true);
  const access = usage.data?.hacksAccess;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <label htmlFor={id} className={LABEL}>
            {t('hacks.platform')}
          </label>
          <select
            id={id}
            value={platform}
            onChange={(event) => setPlatform(event.target.value as HackPlatform)}
            className={clsx(SELECT, 'mt-1')}
          >
            {HACK_PLATFORMS.map((option) => (
              <option key={option} value={option}>
                {t(`platforms.${option}`)}
              </option>
            ))}
          </select>
        </div>
        {access && (
          <span
            data-testid="hacks-access"
            className="rounded-full bg-gray-100 px-3 py-1 text-sm font-medium text-gray-800 dark:bg-gray-800 dark:text-gray-200"
          >
            {t(access === 'limited' ? 'hacks.limited' : 'hacks.full')}
          </span>
        )}
      </div>
      {hacks.isPending && <Spinner size="lg" label={t('hacks.loading')} />}
      {hacks.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('hacks.failed')}
        </p>
      )}
      {hacks.data && hacks.data.length === 0 && (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('hacks.empty')}</p>
      )}
      {hacks.data && hacks.data.length > 0 && (
        <ul className="space-y-3">
          {hacks.data.map((hack) => (
            <li
              key={hack.technique}
              data-testid="hack"
              data-locked={hack.locked}
              className="rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
            >
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-medium text-gray-900 dark:text-gray-100">{hack.technique}</h3>
                <span className={clsx('rounded-full px-2 py-0.5 text-xs font-medium', RISK[riskOf(hack)])}>
                  {t(`hacks.risk.${riskOf(hack)}`)}
                </span>
                <span className="text-xs text-gray-600 dark:text-gray-400">
                  {t('hacks.effectiveness', { value: hack.effectiveness })}
                </span>
              </div>
              {hack.locked ? (
                <p className="mt-2 flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400">
                  <Lock aria-hidden="true" className="size-4" />
                  {t('hacks.locked')}
                </p>
              ) : (
                <>
                  <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">{hack.description}</p>
                  <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
                    <span className="font-medium">{t('hacks.implementation')}: </span>
                    {hack.implementation}
                  </p>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
