require('./workspace-aliases');
module.exports = require('./stack.teardown.ts').default;
