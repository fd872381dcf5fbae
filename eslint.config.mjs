import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { configs as litConfigs } from 'eslint-plugin-lit';
import { configs as wcConfigs } from 'eslint-plugin-wc';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'storybook-static/', '**/.next/', '**/next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  litConfigs['flat/recommended'],
  wcConfigs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^node:/]',
          message: 'Browser-bound code must not import node: modules.',
        },
      ],
    },
  },
  {
    // Node-only entry points, scripts and tests may use node: modules.
    files: [
      'src/**/node.ts',
      'src/**/cli.ts',
      'src/admin/**',
      'src/**/*.node.ts',
      'src/node-entries/**',
      'scripts/**',
      'demo/server.ts',
      'demo/stack.ts',
      'test/node/**',
      'test/e2e/**',
      'bench/**',
      '*.mjs',
      '*.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
