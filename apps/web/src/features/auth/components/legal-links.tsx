import { Trans } from 'react-i18next';
import { Link } from 'react-router';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/** A sentence of the auth catalogue with <terms> and <privacy> tags, rendered with links to both pages. */
export function LegalLinks({ i18nKey }: { i18nKey: 'login.agreement' | 'register.acceptTerms' }) {
  return (
    <Trans
      ns="auth"
      i18nKey={i18nKey}
      components={{
        terms: <Link to="/terms" className={linkClass} />,
        privacy: <Link to="/privacy" className={linkClass} />,
      }}
    />
  );
}
