/// <reference types="vite/client" />

/** The web app's version, from its package.json at build time. */
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** Addresses behind the landing page's Contact and Support links. */
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
}
