/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/packages/*/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  setupFiles: ['<rootDir>/test/setup.ts'],
  // One Redis Cluster for the run, when tests of test/cluster/ run (REDIS_CLUSTER_NODES: use that one).
  globalSetup: '<rootDir>/test/support/cluster-setup.ts',
  globalTeardown: '<rootDir>/test/support/cluster-teardown.ts',
  testTimeout: 30000,
};
