import type { RuleTemplate, ScaledRuleTemplate } from '@adpilot/contracts';
import { FilePlus2, Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdAccounts } from '../../../../api/ad-accounts.ts';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { accountCurrencies, useRuleTemplates } from '../../api/rule-templates.ts';

interface TemplatePickerProps {
  onPick: (template: RuleTemplate | null) => void;
}

const CARD =
  'flex h-full w-full flex-col items-start gap-2 rounded-xl border border-gray-200 bg-white p-4 text-left shadow-sm hover:border-blue-400 hover:bg-blue-50/40 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-800 dark:bg-gray-900 dark:hover:border-blue-700 dark:hover:bg-blue-950/30';

/**
 * The currency the templates' amounts are in (ADR 0132): the one most of the workspace's accounts bill in, or the one
 * chosen when they bill in several; a template picked then looks only at that currency's accounts.
 */
function useTemplateCurrency() {
  const accounts = useAdAccounts();
  const groups = accountCurrencies(accounts.data ?? []);
  const [chosen, setChosen] = useState<string | null>(null);
  const group = groups.find((item) => item.currency === chosen) ?? groups[0] ?? null;
  const scope = (template: ScaledRuleTemplate): RuleTemplate =>
    groups.length > 1 && group
      ? { ...template, rule: { ...template.rule, scope: { ...template.rule.scope, adAccountIds: group.adAccountIds } } }
      : template;
  return { groups, group, choose: setChosen, scope, ready: !accounts.isPending };
}

/** Where a new rule starts: blank, or one of the server's templates named in the page's language. */
export function TemplatePicker({ onPick }: TemplatePickerProps) {
  const { t, i18n } = useTranslation('rules');
  const currency = useTemplateCurrency();
  const templates = useRuleTemplates(currency.group?.scalable ? currency.group.currency : undefined);
  const language = i18n.language === 'th' ? 'th' : 'en';
  const selectId = useId();
  const writtenIn = templates.data?.[0]?.currency;
  return (
    <section aria-labelledby="rule-start-heading" className="space-y-4">
      <h2 id="rule-start-heading" className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        {t('builder.startHeading')}
      </h2>
      {currency.groups.length > 1 && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor={selectId} className="text-gray-700 dark:text-gray-300">
            {t('builder.templateCurrency.choose')}
          </label>
          <select
            id={selectId}
            value={currency.group?.currency}
            onChange={(event) => currency.choose(event.target.value)}
            className="h-9 rounded-lg border border-gray-300 bg-white px-2 dark:border-gray-600 dark:bg-gray-800"
          >
            {currency.groups.map((group) => (
              <option key={group.currency} value={group.currency}>
                {t('builder.templateCurrency.option', { currency: group.currency, count: group.adAccountIds.length })}
              </option>
            ))}
          </select>
        </div>
      )}
      {currency.group && writtenIn && (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="template-currency">
          {writtenIn === currency.group.currency
            ? t(writtenIn === 'THB' ? 'builder.templateCurrency.asWritten' : 'builder.templateCurrency.scaled', {
                currency: writtenIn,
              })
            : t('builder.templateCurrency.unscaled', { currency: currency.group.currency, written: writtenIn })}
        </p>
      )}
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
            <button type="button" className={CARD} onClick={() => onPick(currency.scope(template))}>
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
