module.exports = { ...require('../../jest.preset.js'), displayName: 'outbox', rootDir: __dirname };
