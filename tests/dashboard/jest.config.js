// Browser end-to-end tests of the web dashboard: the real stack, the four services in the
// simulated step mode, and headless Chromium (Debian's `chromium`) driven by playwright-core.
// They use the same consumer groups as the integration and media suites, so they never run at
// the same time as either.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'dashboard',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/src/global-setup.js',
  globalTeardown: '<rootDir>/src/global-teardown.js',
  testTimeout: 180_000,
  maxWorkers: 1,
};
