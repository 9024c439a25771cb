require('../../integration/src/workspace-aliases');
module.exports = require('./media-stack.teardown.ts').default;
