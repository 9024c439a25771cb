// The dashboard's pure modules (routes, formats, list merging, timelines, grouping) run in Node;
// their imports name the compiled `.js` file, which maps back to the TypeScript source here.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'dashboard',
  rootDir: __dirname,
  moduleNameMapper: { ...require('../../jest.preset.js').moduleNameMapper, '^(\\.{1,2}/.*)\\.js$': '$1' },
};
