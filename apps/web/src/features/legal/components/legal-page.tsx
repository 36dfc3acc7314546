import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CONTACT_EMAIL } from '../../../lib/app-config.ts';

const SECTIONS = {
  terms: ['use', 'account', 'automation', 'platforms', 'billing', 'acceptableUse', 'disclaimer', 'changes'],
  privacy: ['collect', 'use', 'adAccounts', 'ai', 'security', 'choices'],
} as const;

type LegalDocument = keyof typeof SECTIONS;

function LegalDocumentView({ document }: { document: LegalDocument }) {
  const { t } = useTranslation('legal');
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold text-gray-900 dark:text-white">{t(`${document}.title`)}</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-400">{t(`${document}.intro`)}</p>
      {SECTIONS[document].map((section) => (
        <section key={section} className="mt-8">
          <h2 className="text-xl font-semibold text-gray-900 dark:text-white">{t(`${document}.${section}.heading`)}</h2>
          <p className="mt-2 leading-relaxed text-gray-700 dark:text-gray-300">{t(`${document}.${section}.body`)}</p>
        </section>
      ))}
      <p className="mt-10 text-gray-700 dark:text-gray-300">
        <Trans
          ns="legal"
          i18nKey="contactLine"
          values={{ email: CONTACT_EMAIL }}
          components={{
            mail: <a href={`mailto:${CONTACT_EMAIL}`} className="text-blue-600 underline dark:text-blue-400" />,
          }}
        />
      </p>
      <Link to="/" className="mt-6 inline-block text-sm font-medium text-blue-600 hover:underline dark:text-blue-400">
        {t('backHome')}
      </Link>
    </article>
  );
}

export function TermsPage() {
  return <LegalDocumentView document="terms" />;
}

export function PrivacyPage() {
  return <LegalDocumentView document="privacy" />;
}
