// Compiles the services ahead of time: `node tools/build/src/build.mts [app…]`.
//
// Each app (apps/<app>/src) and every lib (libs/<lib>/src) is compiled file by file with SWC into
// dist/, keeping the layout, with a source map beside each file. `@longhaul/<lib>` resolves inside
// dist through small packages in dist/node_modules/@longhaul/<lib> whose `main` points at the
// compiled lib, so the output runs with plain `node dist/apps/<app>/src/main.js`, nothing
// preloaded. Compiling on load instead (@swc-node/register) keeps the compiler in every service:
// about 80 MiB of resident memory each.
//
// Several builds may run at once (nx run-many): every file is written to a temp name and renamed.
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const out = join(root, 'dist');
const require = createRequire(import.meta.url);
const swc = require('@swc/core') as typeof import('@swc/core');
const swcOptions = JSON.parse(readFileSync(join(root, 'tools/build/swc.options.json'), 'utf8')) as Record<string, unknown>;
delete swcOptions['//'];

function sources(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
}

function writeAtomically(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, file);
}

function compile(source: string): string {
  const target = join(out, relative(root, source)).replace(/\.ts$/, '.js');
  const result = swc.transformFileSync(source, { ...swcOptions, filename: source, sourceMaps: true, sourceFileName: relative(dirname(target), source) });
  writeAtomically(`${target}.map`, result.map ?? '');
  writeAtomically(target, `${result.code}\n//# sourceMappingURL=${target.split(sep).pop()}.map\n`);
  return target;
}

/** Deletes compiled files under `folder` whose source is gone, so a removed module cannot still load. */
function prune(folder: string, kept: Set<string>): void {
  if (!existsSync(folder)) return;
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, file);
    if (/\.js(\.map)?$/.test(path) && !kept.has(path.replace(/\.map$/, '')) && statSync(path).isFile()) rmSync(path);
  }
}

function aliasPackages(): void {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    const dir = join(out, 'node_modules', alias);
    const main = relative(dir, join(out, target!)).replace(/\.ts$/, '.js');
    writeAtomically(join(dir, 'package.json'), `${JSON.stringify({ name: alias, private: true, main })}\n`);
  }
}

const apps = process.argv.slice(2);
const appNames = apps.length > 0 ? apps : readdirSync(join(root, 'apps'));
const started = performance.now();
let count = 0;
for (const folder of [...appNames.map((app) => `apps/${app}/src`), ...readdirSync(join(root, 'libs')).map((lib) => `libs/${lib}/src`)]) {
  if (!existsSync(join(root, folder))) throw new Error(`${folder} does not exist`);
  const kept = new Set(sources(join(root, folder)).map(compile));
  prune(join(out, folder), kept);
  count += kept.size;
}
aliasPackages();
console.log(`[build] ${appNames.join(', ')} and the libs: ${count} files into ${relative(root, out)}/ in ${Math.round(performance.now() - started)} ms`);
