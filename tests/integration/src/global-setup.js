require('./workspace-aliases');
module.exports = require('./stack.setup.ts').default;
