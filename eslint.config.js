import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { architecture } from './lint/architecture.js';

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
    // Benchmarks, scripts and the server's commands (backup, restore) report on standard output.
    files: ['bench/**', 'scripts/**', 'apps/server/src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Dependency direction (docs/ARCHITECTURE.md, ADR 0021): one rule decides every import ban from the file's place,
    // so no block can replace another's list. Its failing fixtures are in lint/architecture.test.ts.
    files: ['apps/**/*.{ts,tsx,js,mjs}', 'packages/**/*.{ts,js,mjs}'],
    plugins: { adpilot: architecture },
    rules: {
      'adpilot/import-direction': 'error',
      'adpilot/no-drizzle-handle': 'error',
      'adpilot/table-ownership': 'error',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    // Tests and test support read the test database's address: that is not the application's configuration.
    ignores: [
      'apps/server/src/config/env.ts',
      'packages/db/src/testing.ts',
      '**/*.test.{ts,tsx}',
      'apps/*/src/test/**',
    ],
    plugins: { adpilot: architecture },
    rules: {
      'adpilot/no-env-import': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config/env.ts only.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
