// The fault-injection run: one long scenario against the native stack (Postgres, Kafka, Kafka
// Connect + Debezium) with the services as processes on ports 14000+. The scenario starts and
// stops its own services, so there is no global setup. Its pure parts (checks, report) are unit
// tested in libs/testing.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'faults',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.fault-spec.ts'],
  // The run's own bounds (drain, probes) end it well before this; this only catches a hang.
  testTimeout: 25 * 60 * 1000,
  maxWorkers: 1,
};
