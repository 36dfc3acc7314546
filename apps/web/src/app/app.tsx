import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './error-boundary.tsx';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './routes.tsx';

export function App() {
  return (
    <AppErrorBoundary>
      {/* Without transitions, signing out and leaving the page render together, so no guard sees one without the other. */}
      <BrowserRouter useTransitions={false}>
        <AppProviders>
          <AppRoutes />
        </AppProviders>
      </BrowserRouter>
    </AppErrorBoundary>
  );
}
