import { clsx } from 'clsx';
import { BarChart3, Bot, PenLine, Workflow, Zap } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { AnalysisTab } from './analysis-tab.tsx';
import { AssistantTab } from './assistant-tab.tsx';
import { AutomationTab } from './automation-tab.tsx';
import { ContentTab } from './content-tab.tsx';
import { HacksTab } from './hacks-tab.tsx';
import { UsageCard } from './usage-card.tsx';

const TABS = [
  { id: 'assistant', icon: Bot, Panel: AssistantTab },
  { id: 'analysis', icon: BarChart3, Panel: AnalysisTab },
  { id: 'content', icon: PenLine, Panel: ContentTab },
  { id: 'hacks', icon: Zap, Panel: HacksTab },
  { id: 'automation', icon: Workflow, Panel: AutomationTab },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** Spec §2 AI Studio: the usage card and five tabs; only the open tab is mounted, so Hacks loads only when open. */
export function AiStudioPage() {
  const { t } = useTranslation('ai-studio');
  const base = useId();
  const [active, setActive] = useState<TabId>('assistant');
  const current = TABS.find((tab) => tab.id === active) ?? TABS[0];

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const index = TABS.findIndex((tab) => tab.id === active);
    const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
    if (next) {
      setActive(next.id);
      document.getElementById(`${base}-${next.id}-tab`)?.focus();
    }
  };

  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />
      <UsageCard />
      <div
        role="tablist"
        aria-label={t('tabs.label')}
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-gray-200 dark:border-gray-800"
      >
        {TABS.map(({ id, icon: Icon }) => (
          <button
            key={id}
            id={`${base}-${id}-tab`}
            type="button"
            role="tab"
            aria-selected={active === id}
            aria-controls={`${base}-${id}-panel`}
            tabIndex={active === id ? 0 : -1}
            onClick={() => setActive(id)}
            className={clsx(
              'inline-flex shrink-0 items-center gap-2 border-b-2 px-4 py-2 text-sm font-medium',
              active === id
                ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
                : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {t(`tabs.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`}>
        <current.Panel />
      </div>
    </div>
  );
}
