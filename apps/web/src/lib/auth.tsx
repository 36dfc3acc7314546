import {
  DEMO_VISITOR_EMAIL,
  type LoginRequest,
  type RegisterRequest,
  type Session,
  type User,
} from '@adpilot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, refreshSession, setUnauthorizedHandler } from './api-client.ts';
import { chooseWorkspace } from './current-workspace.ts';
import { useServerMessage } from './server-message.ts';
import { authApi } from './auth-api.ts';
import { pathOf, type RedirectState } from './redirect.ts';
import {
  clearStoredSession,
  readRefreshToken,
  readStoredUser,
  readToken,
  storeTokens,
  storeUser,
} from './session-storage.ts';

/** Spec §8: the errors of a manual token refresh. */
export const REFRESH_ERRORS = {
  missing: 'No refresh token available',
  failed: 'Failed to refresh token',
} as const;

export interface AuthContextValue {
  user: User | null;
  /** A stored token but no stored user: nothing can be shown until the server answers. */
  isInitializing: boolean;
  /** True while login, register or the startup check runs. */
  isLoading: boolean;
  /** Signs in; toasts the outcome and rethrows the failure so a form can mark its fields. */
  login: (credentials: LoginRequest) => Promise<User>;
  register: (body: RegisterRequest) => Promise<User>;
  logout: () => Promise<void>;
  /** Whether this is a demo session (ADR 0185): read-only, with the banner inviting to register. */
  isDemo: boolean;
  /** Watch Demo: signs in to the read-only demo workspace and opens the dashboard; throws when refused. */
  watchDemo: () => Promise<void>;
  /** The banner's way out: ends the demo session and opens the sign-up form. */
  leaveDemoToRegister: () => Promise<void>;
  /** Reloads the user from the server; signs out if that fails. */
  refreshUser: () => Promise<void>;
  /** A fresh access token for places that cannot send headers (the log stream's URL). */
  refreshAccessToken: () => Promise<string>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The first visit of an instance waits while the demo is built (503 DEMO_PREPARING), a minute at most. */
async function openDemoSession() {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await authApi.demo();
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'DEMO_PREPARING' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

/** This tab registered the account it is signed in to: the dashboard says "Welcome", not "Welcome back". */
const NEW_ACCOUNT_KEY = 'adpilot.newAccount';

export function isNewAccount(userId: string): boolean {
  return sessionStorage.getItem(NEW_ACCOUNT_KEY) === userId;
}

/** A 4xx means the server rejected the session; a network error or 5xx says nothing about it. */
function isSessionRejected(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('auth');
  const errorMessage = useServerMessage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  // The 401 handler lives outside React; it reads the page to come back to from this ref.
  const currentPath = useRef(pathOf(location));
  useEffect(() => {
    currentPath.current = pathOf(location);
  }, [location]);

  // Spec §4: a stored user and token are shown at once, then re-validated with the server.
  const [user, setUser] = useState<User | null>(() => (readToken() ? readStoredUser() : null));
  const [isInitializing, setIsInitializing] = useState(() => Boolean(readToken()) && !readStoredUser());
  const [isLoading, setIsLoading] = useState(() => Boolean(readToken()));
  const validationStarted = useRef(false);

  const endSession = useCallback(() => {
    clearStoredSession();
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  const startSession = useCallback(
    (session: Session) => {
      storeTokens(session.token, session.refreshToken);
      storeUser(session.user);
      queryClient.clear();
      setUser(session.user);
    },
    [queryClient],
  );

  useEffect(() => {
    setUnauthorizedHandler(() => {
      const wasDemo = readStoredUser()?.email === DEMO_VISITOR_EMAIL;
      endSession();
      // A demo session that ended (an hour at most, ADR 0185) goes back to the landing page, not to a sign-in.
      if (wasDemo) {
        navigate('/', { replace: true });
        return;
      }
      if (currentPath.current.startsWith('/login')) return;
      const state: RedirectState = { from: currentPath.current };
      navigate('/login', { replace: true, state });
    });
  }, [endSession, navigate]);

  useEffect(() => {
    if (validationStarted.current || !readToken()) return;
    validationStarted.current = true;
    authApi
      .me()
      .then((fresh) => {
        storeUser(fresh);
        setUser(fresh);
      })
      .catch((error: unknown) => {
        if (isSessionRejected(error) || !readStoredUser()) endSession();
      })
      .finally(() => {
        setIsInitializing(false);
        setIsLoading(false);
      });
  }, [endSession]);

  const authenticate = useCallback(
    async (request: () => Promise<Session>, success: string, failure: string, registered = false) => {
      setIsLoading(true);
      try {
        const session = await request();
        // Before the session starts, so the first page it opens already knows.
        if (registered) sessionStorage.setItem(NEW_ACCOUNT_KEY, session.user.id);
        else sessionStorage.removeItem(NEW_ACCOUNT_KEY);
        startSession(session);
        toast.success(success);
        return session.user;
      } catch (error) {
        toast.error(errorMessage(error, failure));
        throw error;
      } finally {
        setIsLoading(false);
      }
    },
    [startSession, errorMessage],
  );

  const login = useCallback(
    (credentials: LoginRequest) =>
      authenticate(() => authApi.login(credentials), t('toast.loginSuccess'), t('toast.loginFailed')),
    [authenticate, t],
  );

  const register = useCallback(
    (body: RegisterRequest) =>
      authenticate(() => authApi.register(body), t('toast.registerSuccess'), t('toast.registerFailed'), true),
    [authenticate, t],
  );

  const logout = useCallback(async () => {
    // Spec §8: a failed logout call is ignored; the local session ends regardless.
    await authApi.logout(readRefreshToken()).catch(() => undefined);
    endSession();
    toast.success(t('toast.loggedOut'));
    navigate('/', { replace: true });
  }, [endSession, navigate, t]);

  const watchDemo = useCallback(async () => {
    setIsLoading(true);
    try {
      const { token, refreshToken, user: visitor, workspaceId } = await openDemoSession();
      sessionStorage.removeItem(NEW_ACCOUNT_KEY);
      startSession({ token, refreshToken, user: visitor });
      // The demo workspace is the tab's: its role (viewer) is known as soon as the list is read.
      chooseWorkspace(workspaceId);
      navigate('/dashboard', { replace: false });
    } finally {
      setIsLoading(false);
    }
  }, [startSession, navigate]);

  const leaveDemoToRegister = useCallback(async () => {
    await authApi.logout(readRefreshToken()).catch(() => undefined);
    endSession();
    navigate('/register');
  }, [endSession, navigate]);

  const refreshUser = useCallback(async () => {
    try {
      const fresh = await authApi.me();
      storeUser(fresh);
      setUser(fresh);
    } catch {
      await logout();
    }
  }, [logout]);

  const refreshAccessToken = useCallback(async () => {
    if (!readRefreshToken()) throw new Error(REFRESH_ERRORS.missing);
    const token = (await refreshSession()) ? readToken() : null;
    if (!token) throw new Error(REFRESH_ERRORS.failed);
    return token;
  }, []);

  const value = useMemo(
    () => ({
      user,
      isInitializing,
      isLoading,
      login,
      register,
      logout,
      isDemo: user?.email === DEMO_VISITOR_EMAIL,
      watchDemo,
      leaveDemoToRegister,
      refreshUser,
      refreshAccessToken,
    }),
    [
      user,
      isInitializing,
      isLoading,
      login,
      register,
      logout,
      watchDemo,
      leaveDemoToRegister,
      refreshUser,
      refreshAccessToken,
    ],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const context = use(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}

/** For screens that only render for a signed-in user (inside the guard). */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser must be used on a signed-in page');
  return user;
}
