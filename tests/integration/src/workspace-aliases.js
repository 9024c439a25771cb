// Jest runs global setup and teardown outside its module system, where `moduleNameMapper` does
// not apply. This maps the workspace's `@longhaul/*` aliases (from tsconfig.base.json) for
// Node's own resolver, so the setup can import the harness library like the tests do.
const Module = require('node:module');
const path = require('node:path');

const root = path.join(__dirname, '../../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const resolve = Module._resolveFilename;

Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  const target = compilerOptions.paths[request];
  return resolve.call(this, target ? path.join(root, target[0]) : request, ...rest);
};
