import { BarChart3, Bot, PenLine, Workflow, Zap } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { AnalysisTab } from './analysis-tab.tsx';
import { AssistantTab } from './assistant-tab.tsx';
import { AutomationTab } from './automation-tab.tsx';
import { ContentTab } from './content-tab.tsx';
import { HacksTab } from './hacks-tab.tsx';
import { ScrollingTabs } from './scrolling-tabs.tsx';
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
  const canEdit = useCan('editor');
  const current = TABS.find((tab) => tab.id === active) ?? TABS[0];

  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />
      <ReadOnlyNotice />
      <UsageCard />
      <ScrollingTabs
        tabs={TABS.map(({ id, icon }) => ({ id, icon, label: t(`tabs.${id}`) }))}
        active={active}
        onSelect={setActive}
        label={t('tabs.label')}
        base={base}
      />
      <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`}>
        {/* Using the AI counts against the workspace's plan: a viewer reads the tabs, and every control is off. */}
        <fieldset disabled={!canEdit} className="contents">
          <current.Panel />
        </fieldset>
      </div>
    </div>
  );
}
