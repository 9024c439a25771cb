// API fuzzing: schemathesis generates requests from the api's own OpenAPI document
// (`/openapi.json`) and checks every answer against it, with the real stack and the four services
// in the simulated step mode on ports 16000–16003. Needs the stack to itself, like the other
// stack suites.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'fuzz',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.fuzz-spec.ts'],
  globalSetup: '<rootDir>/src/global-setup.js',
  globalTeardown: '<rootDir>/src/global-teardown.js',
  // The run is bounded by --max-examples; this only catches a run that hangs.
  testTimeout: 20 * 60_000,
  maxWorkers: 1,
};
