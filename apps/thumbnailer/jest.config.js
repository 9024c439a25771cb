module.exports = { ...require('../../jest.preset.js'), displayName: 'thumbnailer', rootDir: __dirname };
