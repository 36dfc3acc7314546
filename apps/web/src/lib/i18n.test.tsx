import { act, render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice, usePageLanguage, type Language } from './i18n.ts';

function Page({ language }: { language?: Language }) {
  return language ? <ThaiByDefault language={language} /> : <Heading />;
}

function ThaiByDefault({ language }: { language: Language }) {
  usePageLanguage(language);
  return <Heading />;
}

function Heading() {
  const { t } = useTranslation('common');
  return <h1>{t('nav.dashboard')}</h1>;
}

describe('page languages', () => {
  it('shows a page in its declared language and returns to English when it is left', () => {
    const { rerender } = render(<Page language="th" />);
    expect(screen.getByRole('heading')).toHaveTextContent('แดชบอร์ด');
    expect(document.documentElement.lang).toBe('th');
    rerender(<Page />);
    expect(screen.getByRole('heading')).toHaveTextContent('Dashboard');
  });

  it("lets the user's stored choice win over the page default", () => {
    render(<Page language="th" />);
    act(() => setLanguageChoice('en'));
    expect(screen.getByRole('heading')).toHaveTextContent('Dashboard');
    expect(localStorage.getItem('language')).toBe('en');
    act(() => setLanguageChoice(null));
    expect(screen.getByRole('heading')).toHaveTextContent('แดชบอร์ด');
  });

  it('has a Thai entry for every English key', async () => {
    const { i18n } = await import('./i18n.ts');
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
