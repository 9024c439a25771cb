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
 * Node options a service runs with, here and in `nx serve` (each app's `project.json`; a unit
 * test keeps the two the same):
 * - `--enable-source-maps`, every service: stack traces point into the TypeScript sources,
 *   through the maps the build writes.
 * - `--max-semi-space-size=4` (MiB; V8's default here is 16), the api only: a streamed upload
 *   arrives as one new Buffer per socket read, and that memory is freed only when a
 *   young-generation collection finds the Buffer dead. With the default young generation a 1 GiB
 *   upload left about 65 MiB of such garbage resident at a time; at 4 MiB the api peaked at
 *   185–186 MiB during one, 10 MiB above 2 MiB's figure, against a 200 MiB target
 *   (docs/benchmarks/media.md). Not 2: at about 3 500 submits a second a 2 MiB young generation
 *   was collected 130 times a second, the objects of requests still in flight survived into the
 *   old generation at about 50 MiB/s, and a full collection with a 10–14 ms pause followed every
 *   3 s; at 4 MiB, about 10 MiB/s and one every 20 s, and about 9 % less api CPU per submit
 *   (docs/benchmarks/tuning.md, section 33).
 *   The workers and the notifier take no uploads and keep V8's default: at 2 MiB their young
 *   collections ran so often that the objects of events and statements still in flight survived
 *   them, and the three used about a quarter more CPU a job (section 32).
 */
export function serviceNodeOptions(app: string): readonly string[] {
  return app === 'api' ? ['--enable-source-maps', '--max-semi-space-size=4'] : ['--enable-source-maps'];
}
