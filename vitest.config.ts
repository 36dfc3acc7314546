import { configDefaults, defineConfig } from 'vitest/config';

/** Files that measure the process itself (its heap), so they run in a worker of their own. */
const ALONE = ['apps/server/src/modules/activity/activity-export.pg.test.ts'];

const node = {
  environment: 'node' as const,
  testTimeout: 20_000,
  hookTimeout: 60_000,
  // One migrated database made before the workers start; each test file copies it (ADR 0068).
  globalSetup: ['packages/db/src/testing-global-setup.ts'],
};

export default defineConfig({
  test: {
    // Two files at once on the two cores the suite is sized for (the default leaves one core idle).
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...node,
          name: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'lint/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
          // Files share a worker's loaded modules: the server's module graph (and PGlite's WebAssembly) loads once
          // per worker, not once per file. Each file still builds its own app on its own database.
          isolate: false,
        },
      },
      { test: { ...node, name: 'node-alone', include: ALONE } },
      'apps/*/vitest.config.ts',
    ],
  },
});
