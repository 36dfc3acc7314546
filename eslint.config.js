import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Dependency direction (ARCHITECTURE §3): web → contracts; server → contracts, db, engine, meta; packages never import apps. */
const forbid = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['**/node_modules', '**/dist', 'data', 'coverage', 'test-results', 'playwright-report', '.data-*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Benchmarks and scripts report on standard output.
    files: ['bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['packages/**/*.ts'],
    rules: forbid(['@adpilot/server', '@adpilot/web', '**/apps/**'], 'Packages never import apps.'),
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: forbid(
      ['@adpilot/db', '@adpilot/meta', '@adpilot/engine', '@adpilot/server', '@adpilot/web', '**/apps/**'],
      'contracts depends on nothing of ours.',
    ),
  },
  {
    files: ['packages/engine/**/*.ts'],
    rules: forbid(
      ['@adpilot/db', '@adpilot/meta', '@adpilot/server', '@adpilot/web', '**/apps/**', 'node:*'],
      'The engine is pure: contracts only, no I/O.',
    ),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(
        [
          '@adpilot/db',
          '@adpilot/meta',
          '@adpilot/engine',
          '@adpilot/server',
          '**/apps/server/**',
          'drizzle-orm*',
          'fastify*',
        ],
        'The web app depends on contracts only.',
      ),
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config/env.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config/env.ts only.' },
      ],
      ...forbid(['@adpilot/web', '**/apps/web/**'], 'The server does not import the web app.'),
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
      'apps/server/src/jobs/**',
    ],
    rules: forbid(['drizzle-orm', 'drizzle-orm/*'], 'Only repositories import Drizzle.'),
  },
);
