import { useId, useMemo, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useAdAccounts } from '../../../../api/ad-accounts.ts';
import { useWords } from '../../hooks/use-words.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { summarizeRule, type SummaryGroup } from '../../lib/summary.ts';

function GroupList({ group, nested = false }: { group: SummaryGroup; nested?: boolean }) {
  return (
    <>
      <p className={nested ? 'font-medium' : 'font-semibold text-gray-900 dark:text-gray-100'}>{group.heading}</p>
      <ul className="mt-1 space-y-1 border-l-2 border-blue-200 pl-3 dark:border-blue-900">
        {group.items.map((item, index) =>
          typeof item === 'string' ? (
            <li key={index}>{item}</li>
          ) : (
            <li key={index}>
              <GroupList group={item} nested />
            </li>
          ),
        )}
      </ul>
    </>
  );
}

function Part({ children }: { children: ReactNode }) {
  return (
    <div className="border-t border-gray-100 pt-3 first:border-t-0 first:pt-0 dark:border-gray-800">{children}</div>
  );
}

/**
 * The rule being edited, said in the page's language as the form changes: who it looks at, when it acts, what it
 * does, how often and what holds it back. It is the same words the preview and the run history explain with.
 */
export function RuleSummaryCard({ children }: { children?: ReactNode }) {
  const words = useWords();
  const headingId = useId();
  const { control } = useFormContext<RuleFormValues>();
  const values = useWatch({ control }) as RuleFormValues;
  const accounts = useAdAccounts();
  const names = useMemo(
    () => new Map((accounts.data ?? []).map((account) => [account.id, account.facebook_account_name])),
    [accounts.data],
  );
  const summary = summarizeRule(values, names, words);
  return (
    <section
      aria-labelledby={headingId}
      data-testid="rule-summary"
      className="rounded-xl border border-blue-200 bg-white p-5 shadow-sm dark:border-blue-900 dark:bg-gray-900"
    >
      <h2 id={headingId} className="text-base font-semibold text-gray-900 dark:text-gray-100">
        {words.t('builderSummary.title')}
      </h2>
      <div className="mt-3 space-y-3 text-sm text-gray-700 dark:text-gray-300">
        <Part>
          <p>{summary.scope}</p>
        </Part>
        <Part>
          <GroupList group={summary.conditions} />
        </Part>
        <Part>
          <p className="font-semibold text-gray-900 dark:text-gray-100">{words.t('builderSummary.then')}</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {summary.actions.length > 0 ? (
              summary.actions.map((action, index) => <li key={index}>{action}</li>)
            ) : (
              <li>{words.t('builderSummary.noActions')}</li>
            )}
          </ul>
        </Part>
        <Part>
          <p>{summary.schedule}</p>
          {summary.safeguards.length > 0 && (
            <p className="mt-1">
              <span className="font-medium">{words.t('builderSummary.safeguards')}</span>{' '}
              {summary.safeguards.join(' · ')}
            </p>
          )}
          <p className="mt-1 text-gray-600 dark:text-gray-400">{summary.status}</p>
        </Part>
      </div>
      {children && <div className="mt-4 flex flex-wrap gap-2">{children}</div>}
    </section>
  );
}
