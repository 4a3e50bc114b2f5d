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
  // With one worker (two cores) every test file runs in jest's process: a handle one leaves open would
  // keep jest from exiting after a green run (CI then hangs to its time limit). The reporter names
  // such handles and the file they appeared after; forceExit then ends the run.
  reporters: ['default', '<rootDir>/test/support/open-handles-reporter.js'],
  forceExit: true,
};
