module.exports = { ...require('../../jest.preset.js'), displayName: 'thumbnails', rootDir: __dirname };
