import type { Rule, RuleDraft, RuleTemplate } from '@adpilot/contracts';
import { ArrowLeft, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useRule } from '../api/rules.ts';
import { blankRule, ruleToForm, type RuleFormValues } from '../lib/rule-form-values.ts';
import { AskAi } from './builder/ask-ai.tsx';
import { RuleForm } from './builder/rule-form.tsx';
import { TemplatePicker } from './builder/template-picker.tsx';

const BACK = 'inline-flex items-center gap-1 text-sm font-medium text-blue-600 hover:underline dark:text-blue-400';

function templateToForm(template: RuleTemplate, language: string): RuleFormValues {
  const words = language === 'th' ? 'th' : 'en';
  return { ...structuredClone(template.rule), name: template.name[words], description: template.description[words] };
}

/** What the AI drafted, shown above the form it fills: the user reviews it there and saves it, or not. */
function DraftNotice({ draft }: { draft: RuleDraft }) {
  const { t } = useTranslation('rules');
  return (
    <section
      aria-label={t('builder.askAi.draftTitle')}
      className="space-y-1 rounded-xl border border-blue-200 bg-blue-50/50 p-4 text-sm dark:border-blue-900 dark:bg-blue-950/20"
    >
      <h2 className="flex items-center gap-2 font-semibold text-gray-900 dark:text-gray-100">
        <Wand2 aria-hidden="true" className="size-4 text-blue-600 dark:text-blue-400" />
        {t('builder.askAi.draftTitle')}
      </h2>
      <p data-testid="ai-draft-explanation" className="whitespace-pre-wrap text-gray-800 dark:text-gray-200">
        {draft.explanation}
      </p>
      <p className="text-gray-600 dark:text-gray-400">{t('builder.askAi.draftNotice')}</p>
    </section>
  );
}

/** /rules/new: ask AI for a draft or pick a start, then the form. */
export function NewRulePage() {
  const { t, i18n } = useTranslation('rules');
  const [start, setStart] = useState<RuleFormValues | null>(null);
  const [draft, setDraft] = useState<RuleDraft | null>(null);
  const canEdit = useCan('editor');
  return (
    <div className="space-y-6">
      <Link to="/rules" className={BACK}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('builder.back')}
      </Link>
      <PageHeader title={t('builder.newTitle')} description={t('builder.newDescription')} />
      {!canEdit ? (
        <ReadOnlyNotice />
      ) : start ? (
        <>
          {draft && <DraftNotice draft={draft} />}
          <RuleForm
            initial={start}
            onRestart={() => {
              setStart(null);
              setDraft(null);
            }}
          />
        </>
      ) : (
        <>
          <AskAi
            onDraft={(answer) => {
              setDraft(answer);
              // Never switched on by the draft itself, whatever it says.
              setStart({ ...structuredClone(answer.rule), isActive: false });
            }}
          />
          <TemplatePicker
            onPick={(template) => setStart(template ? templateToForm(template, i18n.language) : blankRule())}
          />
        </>
      )}
    </div>
  );
}

function EditForm({ rule }: { rule: Rule }) {
  return <RuleForm initial={ruleToForm(rule)} rule={rule} />;
}

/** /rules/:id/edit: the stored rule in the same form. */
export function EditRulePage() {
  const { t } = useTranslation('rules');
  const { id = '' } = useParams();
  const rule = useRule(id);
  const canEdit = useCan('editor');
  return (
    <div className="space-y-6">
      <Link to={`/rules/${id}`} className={BACK}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('builder.backToRule')}
      </Link>
      <PageHeader title={t('builder.editTitle')} />
      {rule.isPending && <Spinner size="lg" label={t('loading')} />}
      {rule.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('detail.notFound')}
        </p>
      )}
      {/* Keyed by the stored version, so a refetched rule restarts the form from the server's copy. */}
      <ReadOnlyNotice />
      {rule.data && canEdit && <EditForm key={rule.data.updatedAt} rule={rule.data} />}
    </div>
  );
}
