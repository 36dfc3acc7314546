import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

const TOUR_HEADING_ID = 'tour-heading';

/*
 * The product as a visitor would meet it, in four stops, each beside a small likeness of its screen drawn in HTML:
 * no screenshot to download (the landing's JavaScript and bytes have a budget, docs/performance.md), and the likeness
 * speaks the reader's language, with its money in a currency the reader knows (baht in Thai, dollars in English).
 */
const STOPS = ['rule', 'ask', 'record', 'report'] as const;
type Stop = (typeof STOPS)[number];

function useFigures() {
  const { i18n } = useTranslation('landing');
  const language = i18n.language;
  const thai = language.startsWith('th');
  const currency = thai ? 'THB' : 'USD';
  const money = (thb: number, usd: number) => formatMoney(thai ? thb : usd, currency, language);
  return {
    cpa: money(500, 15),
    from: money(1000, 30),
    to: money(1200, 36),
    matched: formatNumber(3, language),
    ads: formatNumber(21, language),
    waiting: formatNumber(4, language),
  };
}

function Likeness({ stop }: { stop: Stop }) {
  const { t } = useTranslation('landing');
  const figures = useFigures();
  const lines: string[] = [
    t(`tour.${stop}.screenTitle`, figures),
    t(`tour.${stop}.screenLine`, figures),
    t(`tour.${stop}.screenNote`, figures),
  ];
  return (
    <div className="rounded-xl border border-gray-200 bg-white p-4 text-left shadow-sm dark:border-gray-800 dark:bg-gray-950">
      <div aria-hidden="true" className="mb-3 flex gap-1.5">
        <span className="size-2.5 rounded-full bg-red-400" />
        <span className="size-2.5 rounded-full bg-amber-400" />
        <span className="size-2.5 rounded-full bg-green-500" />
      </div>
      <p className="text-sm font-semibold text-gray-900 dark:text-white">{lines[0]}</p>
      <p className="mt-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
        {lines[1]}
      </p>
      <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">{lines[2]}</p>
    </div>
  );
}

export function TourSection() {
  const { t } = useTranslation('landing');
  return (
    <section aria-labelledby={TOUR_HEADING_ID} className="py-20">
      <div className="mx-auto max-w-6xl px-4">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id={TOUR_HEADING_ID} className="text-3xl font-bold text-gray-900 dark:text-white">
            {t('tour.title')}
          </h2>
          <p className="mt-4 text-gray-600 dark:text-gray-400">{t('tour.subtitle')}</p>
        </div>
        <ol className="mt-12 grid gap-8 md:grid-cols-2">
          {STOPS.map((stop) => (
            <li key={stop} aria-label={t(`tour.${stop}.title`)} className="space-y-4">
              <div>
                <h3 className="text-lg font-semibold text-gray-900 dark:text-white">{t(`tour.${stop}.title`)}</h3>
                <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t(`tour.${stop}.text`)}</p>
              </div>
              <Likeness stop={stop} />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
