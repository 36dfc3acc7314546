import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'lint/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      'apps/*/vitest.config.ts',
    ],
  },
});
