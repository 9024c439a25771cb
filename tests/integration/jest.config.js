// Integration tests: real Postgres, Kafka, Kafka Connect + Debezium, and the four services as
// processes. The global setup brings the stack up (or reuses it) and starts the services once.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.int-spec.ts'],
  globalSetup: '<rootDir>/src/global-setup.js',
  globalTeardown: '<rootDir>/src/global-teardown.js',
  testTimeout: 180_000,
  maxWorkers: 1,
};
