/**
 * Debian's Chromium, as every browser run of the project starts it (the e2e suite, the screenshot tour, the web
 * benchmark): headless, no sandbox (root in CI), and none of the background traffic a fresh profile would start.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
