import type { ReactNode } from 'react';
import { Brand } from '../../../components/brand.tsx';
import { DisplayControls } from '../../../components/display-controls.tsx';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card shared by sign-in, sign-up and the password-reset screens. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <div className="flex min-h-screen flex-col bg-gray-50 dark:bg-gray-950">
      <header className="flex items-center justify-between gap-4 px-4 py-4 sm:px-8">
        <Brand to="/" />
        <div className="flex items-center gap-2">
          <DisplayControls />
        </div>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 sm:items-center">
        <div className="w-full max-w-md">
          <div className="rounded-xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-800 dark:bg-gray-900">
            <h1 className="text-2xl font-semibold text-gray-900 dark:text-gray-100">{title}</h1>
            {subtitle && <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{subtitle}</p>}
            <div className="mt-6">{children}</div>
          </div>
          {footer && <div className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
