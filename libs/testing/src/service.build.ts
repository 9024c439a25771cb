import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { workspaceRoot } from './stack.harness';

let built = false;

/**
 * Compiles the services into `dist/` (`tools/build`), once per process, so every process a test or
 * a benchmark starts runs the current sources the way `nx serve` runs them: compiled ahead, with
 * nothing preloaded. The build of every app includes the web dashboard the api serves. Takes
 * about half a second.
 */
export function ensureServicesBuilt(): void {
  if (built) return;
  const root = workspaceRoot();
  execFileSync(process.execPath, [join(root, 'tools/build/src/build.mts')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

/** The compiled entry point of an app's `src/<entry>.ts`. */
export function compiledEntry(app: string, entry = 'main'): string {
  return join(workspaceRoot(), 'dist/apps', app, 'src', `${entry}.js`);
}

/**
 * Node options every service runs with, here and in `nx serve` (each app's `project.json`; a unit
 * test keeps the two the same):
 * - `--enable-source-maps`: stack traces point into the TypeScript sources, through the maps the
 *   build writes.
 * - `--max-semi-space-size=2` (MiB; V8's default here is 16): a streamed body arrives as one new
 *   Buffer per socket read, and that memory is freed only when a young-generation collection finds
 *   the Buffer dead. With the default young generation a 1 GiB upload left about 65 MiB of such
 *   garbage resident at a time; with 2 MiB, about 20 MiB (docs/benchmarks/media.md). Young
 *   collections run more often in exchange; each costs in proportion to what survives, which in
 *   these services is little.
 */
export const SERVICE_NODE_OPTIONS: readonly string[] = ['--enable-source-maps', '--max-semi-space-size=2'];
