module.exports = { ...require('../../jest.preset.js'), displayName: 'step-worker', rootDir: __dirname };
