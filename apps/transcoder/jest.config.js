module.exports = { ...require('../../jest.preset.js'), displayName: 'transcoder', rootDir: __dirname };
