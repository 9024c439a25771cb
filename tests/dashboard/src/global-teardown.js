require('../../integration/src/workspace-aliases');
module.exports = require('./dashboard-stack.teardown.ts').default;
