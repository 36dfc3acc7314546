import { BarChart3, Clock, PiggyBank, Rocket, ShieldCheck, Zap, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';

const BENEFITS: readonly { key: string; icon: LucideIcon }[] = [
  { key: 'automation', icon: Zap },
  { key: 'monitoring', icon: Clock },
  { key: 'analytics', icon: BarChart3 },
  { key: 'secure', icon: ShieldCheck },
  { key: 'setup', icon: Rocket },
  { key: 'cost', icon: PiggyBank },
];

export function BenefitsSection() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby="benefits-heading" className="bg-gray-50 py-20 dark:bg-gray-900">
      <div className="mx-auto max-w-6xl px-4">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="benefits-heading" className="text-3xl font-bold text-gray-900 dark:text-white">
            {t('benefits.title')}
          </h2>
          <p className="mt-4 text-gray-600 dark:text-gray-400">{t('benefits.subtitle')}</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map(({ key, icon: Icon }) => (
            <li
              key={key}
              className="rounded-xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-950"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-gray-900 dark:text-white">{t(`benefits.${key}.title`)}</h3>
              <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t(`benefits.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
