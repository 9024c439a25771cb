require('../../integration/src/workspace-aliases');
module.exports = require('./media-stack.setup.ts').default;
