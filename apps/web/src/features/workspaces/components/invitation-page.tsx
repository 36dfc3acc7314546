import type { InvitationPreview } from '@adpilot/contracts';
import { MailCheck } from 'lucide-react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSwitchWorkspace } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatDate } from '../../../lib/format.ts';
import { authLink, pathOf, type RedirectState } from '../../../lib/redirect.ts';
import { useAcceptInvitation, useInvitationPreview } from '../api/invitations.ts';
import { useErrorText } from '../hooks/use-error-text.ts';

const LINK_BUTTON =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2';
const PRIMARY = `${LINK_BUTTON} bg-blue-600 text-white hover:bg-blue-700 focus-visible:outline-blue-600`;
const SECONDARY = `${LINK_BUTTON} border border-gray-300 bg-white text-gray-900 hover:bg-gray-50 focus-visible:outline-blue-600 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700`;

/**
 * Opened from the mailed link `/invitations/accept?token=…`, signed in or not. It shows what the invitation offers;
 * a signed-out visitor signs in or creates an account and comes back here; a signed-in one accepts, and works in
 * the new workspace at once. An invitation for another address says so and offers to sign out.
 */
export function InvitationPage() {
  const { t } = useTranslation('invitations');
  const errorText = useErrorText();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const preview = useInvitationPreview(token);

  let body;
  if (!token) body = <p role="alert">{t('invalid')}</p>;
  else if (preview.isPending) {
    body = (
      <p className="flex items-center gap-2">
        <Spinner /> {t('loading')}
      </p>
    );
  } else if (preview.isError) {
    const unknown = preview.error instanceof ApiError && preview.error.status === 404;
    body = <p role="alert">{unknown ? t('invalid') : errorText(preview.error, t('loadFailed'))}</p>;
  } else body = <InvitationOffer token={token} preview={preview.data} />;

  return (
    <div className="mx-auto max-w-md rounded-xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900">
      <MailCheck aria-hidden="true" className="size-8 text-blue-600 dark:text-blue-400" />
      <h1 className="mt-3 text-2xl font-semibold text-gray-900 dark:text-gray-100">{t('title')}</h1>
      <div className="mt-6 space-y-4 text-sm text-gray-700 dark:text-gray-300">{body}</div>
    </div>
  );
}

function InvitationOffer({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { t, i18n } = useTranslation('invitations');
  const { user } = useAuth();
  const location = useLocation();
  const workspace = preview.personal
    ? t('common:workspace.personalOf', { name: preview.workspaceName })
    : preview.workspaceName;

  return (
    <>
      <p className="text-base text-gray-900 dark:text-gray-100">
        {t('offer', { workspace, role: t(`common:workspace.roles.${preview.role}`) })}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {preview.invitedBy && (
          <>
            <dt className="text-gray-500 dark:text-gray-400">{t('invitedBy')}</dt>
            <dd className="min-w-0 break-words">{preview.invitedBy}</dd>
          </>
        )}
        <dt className="text-gray-500 dark:text-gray-400">{t('sentTo')}</dt>
        <dd className="min-w-0 break-words">{preview.email}</dd>
        <dt className="text-gray-500 dark:text-gray-400">{t('expires')}</dt>
        <dd>{formatDate(preview.expiresAt, i18n.language)}</dd>
      </dl>
      {user ? (
        user.email.toLowerCase() === preview.email.toLowerCase() ? (
          <AcceptButton token={token} />
        ) : (
          <OtherAddress signedInAs={user.email} invited={preview.email} />
        )
      ) : (
        <div className="space-y-2">
          <p>{t('signInFirst', { email: preview.email })}</p>
          <div className="flex flex-wrap gap-2">
            <Link
              to={authLink('/login', pathOf(location), preview.email)}
              state={{ from: pathOf(location) } satisfies RedirectState}
              className={PRIMARY}
            >
              {t('signIn')}
            </Link>
            <Link
              to={authLink('/register', pathOf(location), preview.email)}
              state={{ from: pathOf(location) } satisfies RedirectState}
              className={SECONDARY}
            >
              {t('createAccount')}
            </Link>
          </div>
        </div>
      )}
    </>
  );
}

function AcceptButton({ token }: { token: string }) {
  const { t } = useTranslation('invitations');
  const errorText = useErrorText();
  const accept = useAcceptInvitation();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();

  const onAccept = () =>
    accept.mutate(
      { token },
      {
        onSuccess: (workspace) => {
          switchTo(workspace.id);
          toast.success(t('accepted'));
          navigate('/dashboard', { replace: true });
        },
      },
    );

  return (
    <div className="space-y-3">
      {accept.isError && <p role="alert">{errorText(accept.error, t('acceptFailed'))}</p>}
      <Button onClick={onAccept} loading={accept.isPending}>
        {t('accept')}
      </Button>
    </div>
  );
}

function OtherAddress({ signedInAs, invited }: { signedInAs: string; invited: string }) {
  const { t } = useTranslation('invitations');
  const { logout } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const here = pathOf(location);

  // Signing out ends on the home page; this page is the one the visitor wants to come back to.
  const signOut = async () => {
    await logout();
    navigate(here, { replace: true });
  };

  return (
    <div className="space-y-3">
      <p role="alert">{t('otherAddress', { signedInAs, invited })}</p>
      <Button variant="secondary" onClick={() => void signOut()}>
        {t('signOut')}
      </Button>
    </div>
  );
}
