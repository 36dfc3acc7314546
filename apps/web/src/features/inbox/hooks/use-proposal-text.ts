import type { Proposal } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format.ts';

/** "Paused" or "฿1,200.00": a status in words, a budget in the account currency. */
export function useValueText() {
  const { t } = useTranslation('inbox');
  const format = useFormat();
  return (proposal: Proposal, value: Proposal['from']) => {
    if (value === null) return '—';
    if (proposal.field === 'status') return t(`status.${String(value)}`, { defaultValue: String(value) });
    return format.money(Number(value), proposal.currency);
  };
}

/** "Pause ad “Summer sale”: Active → Paused". */
export function useChangeText() {
  const { t } = useTranslation('inbox');
  const value = useValueText();
  return (proposal: Proposal) =>
    t('change', {
      action: t(`actions.${proposal.action}`),
      level: t(`levels.${proposal.target.level}`),
      name: proposal.target.name,
      from: value(proposal, proposal.from),
      to: value(proposal, proposal.to),
    });
}
