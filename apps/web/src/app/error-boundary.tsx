import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/ui/button.tsx';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function ErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 p-6 dark:bg-gray-950">
      <div
        role="alert"
        className="w-full max-w-lg rounded-xl border border-red-200 bg-white p-8 shadow-sm dark:border-red-900 dark:bg-gray-900"
      >
        <h1 className="text-2xl font-semibold text-gray-900 dark:text-gray-100">{t('errorBoundary.title')}</h1>
        <p className="mt-2 text-gray-600 dark:text-gray-400">{t('errorBoundary.description')}</p>
        <details className="mt-4 rounded-lg bg-gray-100 p-3 text-sm dark:bg-gray-800">
          <summary className="cursor-pointer font-medium">{t('errorBoundary.details')}</summary>
          <pre className="mt-2 whitespace-pre-wrap break-words text-red-700 dark:text-red-300">{describe(error)}</pre>
        </details>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          {t('errorBoundary.reload')}
        </Button>
      </div>
    </main>
  );
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors anywhere in the app and shows the whole-app error screen (spec §2). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The screen shows only the message; the stack goes to the console for whoever investigates.
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.hasError ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}
