import { Suspense } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/ui/spinner.tsx';
import { ContentLanguage } from '../lib/content-language.tsx';
import { RedirectIfAuthenticated, RequireAuth } from './guards.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { lazyPage } from './lazy-page.ts';
import { FocusedLayout, OpenLayout, PublicLayout } from './layout/public-layout.tsx';

// Each screen is its own chunk, so the landing page does not download the whole app.
// The public pages read only the first namespaces, so they load without the rest of the catalogues (ADR 0138).
const FIRST = { firstCatalogues: true };
const LandingPage = lazyPage(() => import('../features/landing/components/landing-page.tsx'), 'LandingPage', FIRST);
const LoginPage = lazyPage(() => import('../features/auth/components/login-page.tsx'), 'LoginPage', FIRST);
const RegisterPage = lazyPage(() => import('../features/auth/components/register-page.tsx'), 'RegisterPage', FIRST);
const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/components/forgot-password-page.tsx'),
  'ForgotPasswordPage',
  FIRST,
);
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/components/reset-password-page.tsx'),
  'ResetPasswordPage',
  FIRST,
);
const VerifyEmailPage = lazyPage(
  () => import('../features/notifications/components/verify-email-page.tsx'),
  'VerifyEmailPage',
);
const MailConfirmPage = lazyPage<'MailConfirmPage'>(
  () => import('../features/mail/components/mail-link-page.tsx'),
  'MailConfirmPage',
);
const MailUnsubscribePage = lazyPage<'MailUnsubscribePage'>(
  () => import('../features/mail/components/mail-link-page.tsx'),
  'MailUnsubscribePage',
);
const TermsPage = lazyPage(() => import('../features/legal/components/legal-page.tsx'), 'TermsPage');
const PrivacyPage = lazyPage(() => import('../features/legal/components/legal-page.tsx'), 'PrivacyPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/components/dashboard-page.tsx'), 'DashboardPage');
const AdAccountsPage = lazyPage(
  () => import('../features/ad-accounts/components/ad-accounts-page.tsx'),
  'AdAccountsPage',
);
const CampaignsPage = lazyPage(() => import('../features/campaigns/components/campaigns-page.tsx'), 'CampaignsPage');
const EntityPage = lazyPage(() => import('../features/campaigns/components/entity-page.tsx'), 'EntityPage');
const RulesPage = lazyPage(() => import('../features/rules/components/rules-page.tsx'), 'RulesPage');
const NewRulePage = lazyPage(() => import('../features/rules/components/rule-builder-page.tsx'), 'NewRulePage');
const EditRulePage = lazyPage(() => import('../features/rules/components/rule-builder-page.tsx'), 'EditRulePage');
const RuleDetailPage = lazyPage(() => import('../features/rules/components/rule-detail-page.tsx'), 'RuleDetailPage');
const InboxPage = lazyPage(() => import('../features/inbox/components/inbox-page.tsx'), 'InboxPage');
const AiStudioPage = lazyPage(() => import('../features/ai-studio/components/ai-studio-page.tsx'), 'AiStudioPage');
const ReportsPage = lazyPage(() => import('../features/reports/components/reports-page.tsx'), 'ReportsPage');
const ActivityPage = lazyPage(() => import('../features/activity/components/activity-page.tsx'), 'ActivityPage');
const SubscriptionPage = lazyPage(
  () => import('../features/subscription/components/subscription-page.tsx'),
  'SubscriptionPage',
);
const MembersPage = lazyPage(() => import('../features/workspaces/components/members-page.tsx'), 'MembersPage');
const InvitationPage = lazyPage(
  () => import('../features/workspaces/components/invitation-page.tsx'),
  'InvitationPage',
);
const ProposalDecidePage = lazyPage(
  () => import('../features/inbox/components/proposal-decide-page.tsx'),
  'ProposalDecidePage',
);
const AccountPage = lazyPage(() => import('../features/account/components/account-page.tsx'), 'AccountPage');
const SettingsPage = lazyPage(() => import('../features/settings/components/settings-page.tsx'), 'SettingsPage');
const AgentsPage = lazyPage(() => import('../features/agents/components/agents-page.tsx'), 'AgentsPage');
const ConsentPage = lazyPage(() => import('../features/agents/components/consent-page.tsx'), 'ConsentPage');
const TestConnectionPage = lazyPage(
  () => import('../features/test-connection/components/test-connection-page.tsx'),
  'TestConnectionPage',
);

/**
 * The route table of spec §2, plus the password-reset and legal screens its forms link to. Spec §1 shows the
 * Rules and Subscription content in Thai: their routes say so with `ContentLanguage`, which the user's own
 * choice of language overrides (ADR 0025).
 */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Routes>
        <Route element={<RedirectIfAuthenticated />}>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="ad-accounts" element={<AdAccountsPage />} />
            <Route path="campaigns" element={<CampaignsPage />} />
            <Route path="campaigns/:id" element={<EntityPage />} />
            <Route
              path="rules"
              element={
                <ContentLanguage fallback="th">
                  <Outlet />
                </ContentLanguage>
              }
            >
              <Route index element={<RulesPage />} />
              <Route path="new" element={<NewRulePage />} />
              <Route path=":id" element={<RuleDetailPage />} />
              <Route path=":id/edit" element={<EditRulePage />} />
            </Route>
            <Route path="inbox" element={<InboxPage />} />
            <Route path="ai-studio" element={<AiStudioPage />} />
            <Route path="reports" element={<ReportsPage />} />
            <Route path="activity" element={<ActivityPage />} />
            <Route
              path="subscription"
              element={
                <ContentLanguage fallback="th">
                  <SubscriptionPage />
                </ContentLanguage>
              }
            />
            <Route path="members" element={<MembersPage />} />
            <Route path="account" element={<AccountPage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="settings/api-tokens" element={<AgentsPage />} />
          </Route>
          {/* An AI client's OAuth request, answered by the signed-in member (ADR 0153). */}
          <Route element={<FocusedLayout />}>
            <Route path="oauth/consent" element={<ConsentPage />} />
          </Route>
        </Route>
        <Route path="test" element={<OpenLayout />}>
          <Route index element={<TestConnectionPage />} />
        </Route>
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route element={<PublicLayout />}>
          <Route path="terms" element={<TermsPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          <Route path="verify-email" element={<VerifyEmailPage />} />
          <Route path="invitations/accept" element={<InvitationPage />} />
          <Route path="proposals/decide" element={<ProposalDecidePage />} />
          <Route path="mail/confirm" element={<MailConfirmPage />} />
          <Route path="mail/unsubscribe" element={<MailUnsubscribePage />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
