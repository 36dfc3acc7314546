import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as configureSchemas } from 'zod/v4/core';
import { App } from './app/app.tsx';
import './index.css';
import { loadAllCatalogues, loadShownLanguages } from './lib/i18n.ts';
import { readToken } from './lib/session-storage.ts';
import { applyTheme, readInitialTheme } from './lib/theme.ts';

// The CSP forbids eval: without this, zod probes `new Function` before its first parse, which the browser reports
// as a policy violation (and the forms' schemas are as fast without it).
configureSchemas({ jitless: true });

// Applied before the first render (and without an inline script, which the CSP forbids) so no light flash.
applyTheme(readInitialTheme());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first render waits for the catalogues of the languages shown (ADR 0138): the public pages' namespaces, and all
// of them when signed in (the pages behind the sign-in read the rest). Should that fetch fail, the app renders
// anyway (its texts then read as their keys) rather than stay blank.
void (readToken() ? loadAllCatalogues() : loadShownLanguages())
  .catch(() => undefined)
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
