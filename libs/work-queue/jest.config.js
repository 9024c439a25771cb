module.exports = { ...require('../../jest.preset.js'), displayName: 'work-queue', rootDir: __dirname };
