import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at once on the two cores the suite is sized for (the default leaves one core idle).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'lint/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 60_000,
          // One migrated database made before the workers start; each test file copies it (ADR 0068).
          globalSetup: ['packages/db/src/testing-global-setup.ts'],
          // Files share a worker's loaded modules: the server's module graph (and PGlite's WebAssembly) loads once
          // per worker, not once per file. Each file still builds its own app on its own database.
          isolate: false,
        },
      },
      'apps/*/vitest.config.ts',
    ],
  },
});
