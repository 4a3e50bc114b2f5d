// Flat config: typescript-eslint recommended rules, Prettier owns formatting.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');

module.exports = tseslint.config(
  {
    ignores: ['**/dist/', 'node_modules/', 'coverage/', 'test-output/', 'packages/*/src/generated/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Tests read untyped JSON bodies from HTTP and GraphQL responses.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: { globals: { module: 'writable', require: 'readonly' } },
  },
  // The example bot and the scripts are plain Node JavaScript.
  {
    files: ['examples/**/*.mjs', 'scripts/**/*.mjs', 'packages/mcp/bin/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        fetch: 'readonly',
        console: 'readonly',
        TextDecoder: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
