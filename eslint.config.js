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
  // Import rules (README, "Architecture"). The engines import nothing outside src/engines; the
  // vocabulary (src/vocabulary.ts) imports only the engines; the store never imports the service or
  // the transports; the service never imports the transports; the transports take closed sets and
  // domain types from the vocabulary and everything else from the service, never from src/store,
  // src/engines or src/ai.
  ...[
    ['src/engines/*.ts', ['../*'], 'The engines import nothing outside src/engines.'],
    ['src/engines/*/**/*.ts', ['../../*'], 'The engines import nothing outside src/engines.'],
    [
      'src/vocabulary.ts',
      ['**/store/**', '**/service/**', '**/transport/**', '**/ai/**', '**/ratings/**', '**/config', '**/app'],
      'The vocabulary imports only from src/engines.',
    ],
    [
      'src/store/**/*.ts',
      ['**/service/**', '**/service', '**/transport/**'],
      'The store never imports the service or the transports.',
    ],
    ['src/service/**/*.ts', ['**/transport/**'], 'The service never imports the transports.'],
    [
      'src/transport/**/*.ts',
      ['**/store/**', '**/store', '**/engines/**', '**/engines', '**/ai/**'],
      'Transports take closed sets and domain types from src/vocabulary.ts and the rest from src/service.',
    ],
  ].map(([files, group, message]) => ({
    files: [files],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
  })),
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
