import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Brand } from '../../../components/brand.tsx';
import { CONTACT_EMAIL, SUPPORT_EMAIL } from '../../../lib/app-config.ts';

const linkClass = 'text-sm text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white';

export function LandingFooter() {
  const { t } = useTranslation('landing');
  return (
    <footer className="border-t border-gray-200 py-10 dark:border-gray-800">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 md:flex-row md:items-center md:justify-between">
        <div>
          <Brand to="/" />
          <p className="mt-2 text-sm text-gray-500 dark:text-gray-400">{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.label')} className="flex flex-wrap gap-x-6 gap-y-2">
          <Link to="/privacy" className={linkClass}>
            {t('footer.privacy')}
          </Link>
          <Link to="/terms" className={linkClass}>
            {t('footer.terms')}
          </Link>
          <a href={`mailto:${CONTACT_EMAIL}`} className={linkClass}>
            {t('footer.contact')}
          </a>
          <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
            {t('footer.support')}
          </a>
        </nav>
      </div>
      <p className="mx-auto mt-8 max-w-6xl px-4 text-sm text-gray-500 dark:text-gray-400">{t('footer.copyright')}</p>
    </footer>
  );
}
