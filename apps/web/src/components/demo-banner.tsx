import { Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth.tsx';
import { Button } from './ui/button.tsx';

/**
 * On every signed-in page of a demo session (ADR 0185): what this is, and the way to an account of one's own. The
 * demo's visitor is a viewer, so the pages already hide their controls; this says why, once, above them.
 */
export function DemoBanner() {
  const { t } = useTranslation('common');
  const { isDemo, leaveDemoToRegister } = useAuth();
  if (!isDemo) return null;
  return (
    <aside
      aria-label={t('demo.label')}
      className="mb-4 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between lg:mb-6 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <p className="flex items-start gap-2">
        <Sparkles aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{t('demo.banner')}</span>
      </p>
      <Button size="sm" className="shrink-0 self-start sm:self-auto" onClick={() => void leaveDemoToRegister()}>
        {t('demo.register')}
      </Button>
    </aside>
  );
}
