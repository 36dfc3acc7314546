import { act, render, screen, within } from '@testing-library/react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { ContentLanguage } from './content-language.tsx';
import { i18n, setLanguageChoice } from './i18n.ts';

function Label({ testId }: { testId: string }) {
  const { t } = useTranslation('common');
  return <span data-testid={testId}>{t('nav.dashboard')}</span>;
}

/** A shell label beside page content that is Thai until the user chooses, with a dialog portalled out of it. */
function ShellWithThaiPage() {
  return (
    <>
      <nav>
        <Label testId="shell" />
      </nav>
      <main>
        <ContentLanguage fallback="th">
          <Label testId="content" />
          {createPortal(<Label testId="dialog" />, document.body)}
        </ContentLanguage>
      </main>
    </>
  );
}

describe('shell and content languages', () => {
  it('keeps the shell English while Thai-by-default content is Thai, for a user who never chose', () => {
    render(<ShellWithThaiPage />);
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
    expect(screen.getByTestId('dialog')).toHaveTextContent('แดชบอร์ด');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.language).toBe('en');
    expect(screen.getByTestId('content').closest('[lang]')).toHaveAttribute('lang', 'th');
  });

  it("applies the user's choice to the shell and the content alike", () => {
    render(<ShellWithThaiPage />);
    act(() => setLanguageChoice('en'));
    expect(screen.getByTestId('content')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(localStorage.getItem('language')).toBe('en');

    act(() => setLanguageChoice('th'));
    expect(screen.getByTestId('shell')).toHaveTextContent('แดชบอร์ด');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
    expect(document.documentElement.lang).toBe('th');

    act(() => setLanguageChoice(null));
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
  });

  it('leaves the shell language untouched when Thai content is left', () => {
    const { rerender } = render(<ShellWithThaiPage />);
    rerender(
      <nav>
        <Label testId="shell" />
      </nav>,
    );
    expect(within(screen.getByRole('navigation')).getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(i18n.language).toBe('en');
  });

  it('follows a choice made in another tab', () => {
    render(<ShellWithThaiPage />);
    localStorage.setItem('language', 'th');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'language', newValue: 'th' }));
    });
    expect(screen.getByTestId('shell')).toHaveTextContent('แดชบอร์ด');
    localStorage.removeItem('language');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'language', newValue: null }));
    });
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
  });

  it('starts in the stored choice, and English without one', async () => {
    localStorage.setItem('language', 'th');
    const { shellLanguage } = await import('./i18n.ts');
    expect(shellLanguage()).toBe('th');
    localStorage.removeItem('language');
    expect(shellLanguage()).toBe('en');
  });

  it('has a Thai entry for every English key', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`))
        : [prefix];
    for (const namespace of Object.keys(i18n.options.resources?.en ?? {})) {
      const en = keys(i18n.getResourceBundle('en', namespace));
      const th = keys(i18n.getResourceBundle('th', namespace));
      expect(th, namespace).toEqual(expect.arrayContaining(en));
    }
  });
});
