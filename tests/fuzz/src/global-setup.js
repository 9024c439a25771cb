require('../../integration/src/workspace-aliases');
module.exports = require('./fuzz-stack.setup.ts').default;
