import type { RuleTemplate } from '@adpilot/contracts';
import { FilePlus2, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { useRuleTemplates } from '../../api/rule-templates.ts';

interface TemplatePickerProps {
  onPick: (template: RuleTemplate | null) => void;
}

const CARD =
  'flex h-full w-full flex-col items-start gap-2 rounded-xl border border-gray-200 bg-white p-4 text-left shadow-sm hover:border-blue-400 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-800 dark:bg-gray-900 dark:hover:border-blue-700 dark:hover:bg-blue-950/30';

/** Where a new rule starts: blank, or one of the server's templates named in the page's language. */
export function TemplatePicker({ onPick }: TemplatePickerProps) {
  const { t, i18n } = useTranslation('rules');
  const templates = useRuleTemplates();
  const language = i18n.language === 'th' ? 'th' : 'en';
  return (
    <section aria-labelledby="rule-start-heading" className="space-y-4">
      <h2 id="rule-start-heading" className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        {t('builder.startHeading')}
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <li>
          <button type="button" className={CARD} onClick={() => onPick(null)}>
            <FilePlus2 aria-hidden="true" className="size-5 text-gray-500" />
            <span className="font-semibold text-gray-900 dark:text-gray-100">{t('builder.blank')}</span>
            <span className="text-sm text-gray-600 dark:text-gray-400">{t('builder.blankHint')}</span>
          </button>
        </li>
        {templates.data?.map((template) => (
          <li key={template.id}>
            <button type="button" className={CARD} onClick={() => onPick(template)}>
              <Sparkles aria-hidden="true" className="size-5 text-blue-600 dark:text-blue-400" />
              <span className="font-semibold text-gray-900 dark:text-gray-100">{template.name[language]}</span>
              <span className="text-sm text-gray-600 dark:text-gray-400">{template.description[language]}</span>
            </button>
          </li>
        ))}
      </ul>
      {templates.isPending && <Spinner label={t('builder.loadingTemplates')} />}
      {templates.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('builder.templatesFailed')}
        </p>
      )}
    </section>
  );
}
