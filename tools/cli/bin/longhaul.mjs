#!/usr/bin/env node
// `npx longhaul`: the CLI is TypeScript in ../src, run by Node's type stripping (Node 24), which
// works because npm links this package from tools/cli and Node loads it by its real path.
import { main } from '../src/cli.mts';

await main();
