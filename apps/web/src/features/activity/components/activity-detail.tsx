import type { ActivityLog, Explanation } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Modal } from '../../../components/ui/modal.tsx';
import { useActivityText, useActorText, useChangeLine } from '../../../lib/activity-text.ts';
import { explanationLine } from '../../../lib/explanation-line.ts';
import { useFormat } from '../../../lib/format.ts';

const LINK = 'font-medium text-blue-700 underline hover:no-underline dark:text-blue-300';

function isExplanation(value: unknown): value is Explanation {
  return typeof value === 'object' && value !== null && 'conditions' in value;
}

/**
 * One entry in full: when, level, type, who, the sentence, the change from → to, why the rule decided it, and the
 * way to the rule (its run history), the Inbox for a proposal, the ad accounts for an account's entry.
 */
export function ActivityDetail({ log, onClose }: { log: ActivityLog | null; onClose: () => void }) {
  const { t } = useTranslation(['activity', 'rules', 'inbox']);
  const text = useActivityText();
  const actorText = useActorText();
  const changeLine = useChangeLine();
  const format = useFormat();
  if (!log) return null;
  const change = changeLine(log);
  const explanation = isExplanation(log.metadata.explanation) ? log.metadata.explanation : null;
  const why = explanation ? explanationLine(explanation, t, (value) => format.number(value)) : '';
  const proposal = typeof log.code === 'string' && /^rule_(action_proposed|proposal_)/.test(log.code);
  const row = (term: string, value: React.ReactNode) => (
    <div className="grid gap-1 sm:grid-cols-[9rem_1fr]">
      <dt className="text-gray-600 dark:text-gray-400">{term}</dt>
      <dd className="break-words text-gray-900 dark:text-gray-100">{value}</dd>
    </div>
  );
  return (
    <Modal open onClose={onClose} title={t('activity:detail.title')} closeLabel={t('activity:detail.close')}>
      <dl className="space-y-3 text-sm">
        {row(
          t('activity:detail.when'),
          <time dateTime={log.createdAt}>{format.dateTime(log.createdAt, { seconds: true })}</time>,
        )}
        {row(t('activity:detail.level'), t(`activity:levels.${log.level}`))}
        {row(t('activity:detail.type'), t(`activity:types.${log.type}`, log.type))}
        {row(t('activity:detail.by'), actorText(log) ?? t('activity:detail.system'))}
        {row(t('activity:detail.what'), text(log))}
        {change && row(t('activity:detail.change'), change)}
        {why && row(t('activity:detail.why'), why)}
        {(log.ruleId || proposal || log.adAccountId) &&
          row(
            t('activity:detail.links'),
            <ul className="space-y-1">
              {log.ruleId && (
                <li>
                  <Link to={`/rules/${log.ruleId}`} className={LINK}>
                    {t('activity:detail.rule')}
                  </Link>
                </li>
              )}
              {proposal && (
                <li>
                  <Link to="/inbox" className={LINK}>
                    {t('activity:detail.inbox')}
                  </Link>
                </li>
              )}
              {log.adAccountId && (
                <li>
                  <Link to="/ad-accounts" className={LINK}>
                    {t('activity:detail.adAccounts')}
                  </Link>
                </li>
              )}
            </ul>,
          )}
      </dl>
    </Modal>
  );
}
