import type { AgentScope } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';

/** A credential's scopes, each as a small badge. */
export function ScopeBadges({ scopes }: { scopes: readonly AgentScope[] }) {
  const { t } = useTranslation('agents');
  return (
    <span className="inline-flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <span
          key={scope}
          className={
            scope === 'write'
              ? 'rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200'
              : 'rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300'
          }
        >
          {t(`scopes.${scope}`)}
        </span>
      ))}
    </span>
  );
}
