// The fault run's pure parts (verdict, report assembly, malformed messages), run with every
// other project's unit tests. Only `*.spec.ts`: the scenario itself (`*.fault-spec.ts`) stops
// parts of the shared stack and runs only through `npm run test:faults`.
module.exports = { ...require('../../jest.preset.js'), displayName: 'faults-unit', rootDir: __dirname };
