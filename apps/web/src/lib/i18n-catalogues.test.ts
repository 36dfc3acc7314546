import { describe, expect, it } from 'vitest';
import * as enFirst from '../locales/en/first.ts';
import * as enRest from '../locales/en/rest.ts';
import * as thFirst from '../locales/th/first.ts';
import * as thRest from '../locales/th/rest.ts';
import { FIRST_NAMESPACES, LANGUAGES } from './i18n.ts';

const files = import.meta.glob('../locales/*/*.json');
const namespaces = (paths: string[]) => paths.map((path) => /([^/]+)\.json$/.exec(path)?.[1]).sort();
const parts = { en: { first: enFirst, rest: enRest }, th: { first: thFirst, rest: thRest } };

describe('catalogue chunks', () => {
  it.each(LANGUAGES)('splits every %s namespace into the first chunk or the rest, once', (language) => {
    const first = namespaces(Object.keys(parts[language].first.catalogues));
    const rest = namespaces(Object.keys(parts[language].rest.catalogues));
    const all = namespaces(Object.keys(files).filter((path) => path.includes(`/locales/${language}/`)));
    expect(first).toEqual([...FIRST_NAMESPACES].sort());
    expect([...first, ...rest].sort()).toEqual(all);
    expect(rest.filter((namespace) => first.includes(namespace))).toEqual([]);
  });
});
