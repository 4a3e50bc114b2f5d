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
  // A handle a test file leaves open would keep jest from exiting after a green run (CI then hangs to
  // its time limit). The reporter names such handles and the file they appeared after; forceExit then
  // ends the run.
  reporters: ['default', '<rootDir>/test/support/open-handles-reporter.js'],
  forceExit: true,
  // Two workers, also on two cores: most files wait on sockets, Redis and child processes more than
  // they compute, and every file is independent (its own server, Redis prefix, ports). Measured on two
  // cores: 2329 tests took 668 s of jest in one worker; 2559 tests take 579 s in two. Tests assert no
  // timings (speed is measured in bench/).
  maxWorkers: 2,
};
