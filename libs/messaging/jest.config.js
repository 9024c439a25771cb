module.exports = { ...require('../../jest.preset.js'), displayName: 'messaging', rootDir: __dirname };
