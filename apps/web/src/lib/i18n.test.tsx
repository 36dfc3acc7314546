import { act, render, screen, within } from '@testing-library/react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContentLanguage } from './content-language.tsx';
import { browserLanguage, i18n, setLanguageChoice, shellLanguage } from './i18n.ts';

/** The browser asks for these languages, as `navigator.languages` answers them, and says it changed. */
function browserAsks(languages: string[]): void {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
  act(() => {
    window.dispatchEvent(new Event('languagechange'));
  });
}

beforeEach(() => {
  // A first visit: nothing chosen yet.
  localStorage.removeItem('language');
  act(() => {
    window.dispatchEvent(new Event('languagechange'));
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.removeItem('language');
  act(() => {
    window.dispatchEvent(new Event('languagechange'));
  });
});

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
  it("puts every page in the browser's language on a first visit", () => {
    browserAsks(['th-TH', 'en-US']);
    render(<ShellWithThaiPage />);
    expect(screen.getByTestId('shell')).toHaveTextContent('แดชบอร์ด');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
    expect(document.documentElement.lang).toBe('th');

    browserAsks(['en-GB', 'th']);
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    // An English browser reads Rules in English too: the mix is never a first visit's surprise.
    expect(screen.getByTestId('content')).toHaveTextContent('Dashboard');
    expect(localStorage.getItem('language')).toBeNull();
  });

  it('takes the first of the browser languages it speaks, else English', () => {
    browserAsks(['fr-FR', 'th', 'en']);
    expect(browserLanguage()).toBe('th');
    browserAsks(['ja-JP', 'de']);
    expect(browserLanguage()).toBe('en');
    browserAsks([]);
    expect(browserLanguage()).toBe('en');
  });

  it('keeps the shell English while Thai-by-default content is Thai, once the user chose the page mix', () => {
    browserAsks(['th-TH']);
    render(<ShellWithThaiPage />);
    act(() => setLanguageChoice(null));
    expect(localStorage.getItem('language')).toBe('auto');
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
    expect(screen.getByTestId('dialog')).toHaveTextContent('แดชบอร์ด');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.language).toBe('en');
    expect(screen.getByTestId('content').closest('[lang]')).toHaveAttribute('lang', 'th');
  });

  it("applies the user's choice to the shell and the content alike", () => {
    act(() => setLanguageChoice(null));
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
    act(() => setLanguageChoice(null));
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
    localStorage.setItem('language', 'auto');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'language', newValue: 'auto' }));
    });
    expect(screen.getByTestId('shell')).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('content')).toHaveTextContent('แดชบอร์ด');
  });

  it("starts in the stored choice over the browser's, and English under the page mix", () => {
    browserAsks(['th-TH']);
    localStorage.setItem('language', 'en');
    expect(shellLanguage()).toBe('en');
    localStorage.setItem('language', 'auto');
    expect(shellLanguage()).toBe('en');
    localStorage.removeItem('language');
    expect(shellLanguage()).toBe('th');
  });

  it('has a Thai entry for every English key', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`))
        : [prefix];
    for (const namespace of Object.keys(i18n.store.data.en ?? {})) {
      const en = keys(i18n.getResourceBundle('en', namespace));
      const th = keys(i18n.getResourceBundle('th', namespace));
      expect(th, namespace).toEqual(expect.arrayContaining(en));
    }
  });
});
