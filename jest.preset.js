// Shared Jest settings: TypeScript through SWC with the options the service build uses
// (tools/build/swc.options.json), and the workspace path aliases read from tsconfig.base.json so
// tests import libs as apps do.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');
const { '//': _why, ...swcOptions } = require('./tools/build/swc.options.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias}$`,
    path.join(__dirname, target),
  ]),
);

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcOptions, sourceMaps: 'inline' }],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
