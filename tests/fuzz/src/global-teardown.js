require('../../integration/src/workspace-aliases');
module.exports = require('./fuzz-stack.teardown.ts').default;
