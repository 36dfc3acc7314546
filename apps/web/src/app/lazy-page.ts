import { lazy, type ComponentType } from 'react';
import { loadAllCatalogues } from '../lib/i18n.ts';

const RELOADED_AT_KEY = 'chunkReloadedAt';
const RELOAD_COOLDOWN_MS = 10_000;

/**
 * A new deploy replaces the hashed chunks an open tab was built against, so its next lazy import fails.
 * Reloading once fetches the new index.html and chunks; a second failure soon after is a real error and
 * reaches the error screen instead of looping.
 */
function reloadOnce(error: unknown): Promise<never> {
  const last = Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
  if (Date.now() - last < RELOAD_COOLDOWN_MS) return Promise.reject(error);
  sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
  window.location.reload();
  return new Promise<never>(() => undefined);
}

/**
 * A screen (or a dialog) loaded on first use, from the named export of its module, with every namespace of the
 * catalogues; a public page that reads only the first ones (lib/i18n.ts FIRST_NAMESPACES) says `firstCatalogues`
 * and loads without the rest (ADR 0138).
 */
export function lazyPage<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  { firstCatalogues = false }: { firstCatalogues?: boolean } = {},
) {
  return lazy(() =>
    Promise.all([load(), firstCatalogues ? undefined : loadAllCatalogues()]).then(
      ([module]) => ({ default: module[name] }),
      reloadOnce,
    ),
  );
}
