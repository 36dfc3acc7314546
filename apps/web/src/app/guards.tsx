import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/spinner.tsx';
import { useAuth } from '../lib/auth.tsx';
import { pathOf, redirectTarget, type RedirectState } from '../lib/redirect.ts';

/** Signed-in pages: a signed-out visitor goes to /login, which brings them back here afterwards. */
export function RequireAuth() {
  const { user, isInitializing } = useAuth();
  const location = useLocation();
  if (isInitializing) return <PageSpinner />;
  if (!user) {
    const state: RedirectState = { from: pathOf(location) };
    return <Navigate to="/login" replace state={state} />;
  }
  return <Outlet />;
}

/**
 * Landing, login and register are for signed-out visitors. Signing in on /login re-renders this guard
 * with a user, which is what sends them on: to the page they came from, else the dashboard.
 */
export function RedirectIfAuthenticated() {
  const { user, isInitializing } = useAuth();
  const location = useLocation();
  if (isInitializing) return <PageSpinner />;
  if (user) return <Navigate to={redirectTarget(location.state, location.search)} replace />;
  return <Outlet />;
}
