module.exports = { ...require('../../jest.preset.js'), displayName: 'transcoding', rootDir: __dirname };
