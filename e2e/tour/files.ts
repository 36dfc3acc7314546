import { join } from 'node:path';

/** Where the tour writes its pictures and contact sheet (git-ignored). */
export const SCREENSHOTS_DIR = join(import.meta.dirname, '..', '..', 'screenshots');

/** The seeded workspace, handed from the seed project to the tour's tests. */
export const WORKSPACE_FILE = join(SCREENSHOTS_DIR, '.workspace.json');
