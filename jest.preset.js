// Shared Jest settings: TypeScript through SWC (decorator metadata on, as NestJS DI needs it),
// CommonJS output (Node ≥ 24.9 lets CommonJS require the ESM-only NestJS 12 packages), and the
// workspace path aliases read from tsconfig.base.json so tests import libs as apps do.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

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
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2023',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
