import { PlayCircle } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Brand } from '../../../components/brand.tsx';
import { DisplayControls } from '../../../components/display-controls.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { BenefitsSection } from './benefits-section.tsx';
import { HowItWorksSection } from './how-it-works-section.tsx';
import { LandingFooter } from './landing-footer.tsx';
import { PlansSection } from './plans-section.tsx';
import { TourSection } from './tour-section.tsx';

const primaryLink =
  'inline-flex items-center justify-center rounded-lg bg-blue-600 font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400';

export function LandingPage() {
  const { t } = useTranslation('landing');
  const { watchDemo } = useAuth();
  const errorMessage = useServerMessage();
  const [opening, setOpening] = useState(false);
  // Watch Demo opens the read-only demo workspace, no sign-up (ADR 0185).
  const openDemo = () => {
    setOpening(true);
    watchDemo()
      .catch((error: unknown) => toast.error(errorMessage(error, t('hero.demoFailed'))))
      .finally(() => setOpening(false));
  };
  return (
    <div className="min-h-screen bg-white dark:bg-gray-950">
      <header className="border-b border-gray-100 dark:border-gray-900">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Brand to="/" />
          <nav className="flex items-center gap-2 sm:gap-4">
            <div className="hidden items-center gap-2 sm:flex">
              <DisplayControls />
            </div>
            <Link
              to="/login"
              className="text-sm font-medium text-gray-700 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white"
            >
              {t('nav.signIn')}
            </Link>
            <Link to="/register" className={`${primaryLink} h-9 px-4 text-sm`}>
              {t('nav.getStarted')}
            </Link>
          </nav>
        </div>
        {/* A phone has no room beside the links: the language and theme get a row of their own, never dropped. */}
        <div className="flex items-center justify-end gap-2 px-4 pb-2 sm:hidden">
          <DisplayControls menuClassName="w-40" />
        </div>
      </header>
      <main>
        <section className="mx-auto max-w-4xl px-4 py-20 text-center sm:py-28">
          <p className="inline-block rounded-full bg-blue-50 px-3 py-1 text-sm font-medium text-blue-700 dark:bg-blue-950 dark:text-blue-300">
            {t('hero.badge')}
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-gray-900 sm:text-5xl dark:text-white">
            {t('hero.title')}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-gray-600 dark:text-gray-400">{t('hero.subtitle')}</p>
          <div className="mt-10 flex flex-col items-center justify-center gap-4 sm:flex-row">
            <Link to="/register" className={`${primaryLink} h-12 px-6 text-base`}>
              {t('hero.startTrial')}
            </Link>
            <Button variant="secondary" size="lg" onClick={openDemo} loading={opening}>
              {!opening && <PlayCircle aria-hidden="true" className="size-5" />}
              {opening ? t('hero.demoOpening') : t('hero.watchDemo')}
            </Button>
          </div>
        </section>
        <BenefitsSection />
        <TourSection />
        <HowItWorksSection />
        <PlansSection />
      </main>
      <LandingFooter />
    </div>
  );
}
