import type { AdAccount, Rule } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { useRules } from '../../../api/rules.ts';

/**
 * Which rules lose the account, as the server will do it: every rule naming it stops naming it, and an active rule
 * naming no other account is switched off (it would otherwise widen to every account).
 */
export function rulesLosing(rules: readonly Rule[], accountId: string) {
  const naming = rules.filter((rule) => rule.scope.adAccountIds.includes(accountId));
  const switchedOff = naming.filter((rule) => rule.isActive && rule.scope.adAccountIds.length === 1);
  return { naming, switchedOff };
}

/** The disconnect question: the spec's sentence, then the rules that lose the account (ADR 0058). */
export function DisconnectQuestion({ account }: { account: AdAccount }) {
  const { t, i18n } = useTranslation('ad-accounts');
  const rules = useRules();
  const list = (items: readonly Rule[]) =>
    new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format(items.map((rule) => rule.name));
  const { naming, switchedOff } = rulesLosing(rules.data ?? [], account.id);
  return (
    <div className="space-y-2">
      <p>{t('disconnectDialog.message', { name: account.facebook_account_name })}</p>
      {rules.data &&
        (naming.length === 0 ? (
          <p>{t('disconnectRules.none')}</p>
        ) : (
          <p>{t('disconnectRules.naming', { count: naming.length, names: list(naming) })}</p>
        ))}
      {switchedOff.length > 0 && (
        <p className="font-medium text-amber-800 dark:text-amber-300">
          {t('disconnectRules.off', { count: switchedOff.length, names: list(switchedOff) })}
        </p>
      )}
    </div>
  );
}
