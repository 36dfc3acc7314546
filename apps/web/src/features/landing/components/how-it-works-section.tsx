import { useTranslation } from 'react-i18next';

export const HOW_IT_WORKS_HEADING_ID = 'how-it-works';

const STEPS = ['connect', 'rules', 'relax'] as const;

export function HowItWorksSection() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby={HOW_IT_WORKS_HEADING_ID} className="py-20">
      <div className="mx-auto max-w-6xl px-4">
        <div className="mx-auto max-w-2xl text-center">
          {/* Focusable: a link to #how-it-works moves keyboard and screen-reader users here too. */}
          <h2
            id={HOW_IT_WORKS_HEADING_ID}
            tabIndex={-1}
            className="scroll-mt-8 text-3xl font-bold text-gray-900 outline-none dark:text-white"
          >
            {t('howItWorks.title')}
          </h2>
          <p className="mt-4 text-gray-600 dark:text-gray-400">{t('howItWorks.subtitle')}</p>
        </div>
        <ol className="mt-12 grid gap-8 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step} className="text-center">
              <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-blue-600 text-lg font-bold text-white">
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-gray-900 dark:text-white">
                {t(`howItWorks.${step}.title`)}
              </h3>
              <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t(`howItWorks.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
