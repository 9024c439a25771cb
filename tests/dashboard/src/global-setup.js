require('../../integration/src/workspace-aliases');
module.exports = require('./dashboard-stack.setup.ts').default;
