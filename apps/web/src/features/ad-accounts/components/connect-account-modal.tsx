import { Check, ExternalLink, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useFacebookAuthUrl } from '../api/get-facebook-auth-url.ts';

const ACCESS_KEYS = ['readAccount', 'viewPerformance', 'pauseResume', 'updateBudgets'] as const;

interface ConnectAccountModalProps {
  open: boolean;
  onClose: () => void;
}

export function ConnectAccountModal({ open, onClose }: ConnectAccountModalProps) {
  const { t } = useTranslation('ad-accounts');
  const authUrl = useFacebookAuthUrl();
  // Stays true after the address arrives: the page is being left, so the button must not flip back.
  const [redirecting, setRedirecting] = useState(false);
  const busy = authUrl.isPending || redirecting;

  useEffect(() => {
    // Coming Back from Facebook may restore this page from the back-forward cache, still "Connecting...".
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const close = () => {
    // Detaches the pending request, so closing the modal while it runs also cancels the redirect.
    authUrl.reset();
    onClose();
  };

  const continueToFacebook = () => {
    authUrl.mutate(undefined, {
      onSuccess: ({ authUrl: address }) => {
        setRedirecting(true);
        window.location.assign(address);
      },
      onError: () => toast.error(t('toast.initiateFailed')),
    });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={t('connectModal.title')}
      closeLabel={t('close')}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('cancel')}
          </Button>
          <Button onClick={continueToFacebook} loading={busy}>
            {busy ? t('connectModal.connecting') : t('connectModal.continue')}
            {!busy && <ExternalLink aria-hidden="true" className="size-4" />}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm text-gray-600 dark:text-gray-300">
        <p>{t('connectModal.redirect')}</p>
        <p className="flex gap-2 rounded-lg bg-blue-50 p-3 text-blue-800 dark:bg-blue-950/50 dark:text-blue-200">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('connectModal.permissions')}
        </p>
        <div>
          <p className="font-medium text-gray-900 dark:text-gray-100">{t('connectModal.accessHeading')}</p>
          <ul className="mt-2 space-y-1.5">
            {ACCESS_KEYS.map((key) => (
              <li key={key} className="flex items-center gap-2">
                <Check aria-hidden="true" className="size-4 shrink-0 text-green-600 dark:text-green-400" />
                {t(`connectModal.access.${key}`)}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </Modal>
  );
}
