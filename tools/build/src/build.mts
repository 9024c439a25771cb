// Compiles the services ahead of time: `node tools/build/src/build.mts [app…]`.
//
// Each app (apps/<app>/src) and every lib (libs/<lib>/src) is compiled file by file with SWC into
// dist/, keeping the layout, with a source map beside each file. `@longhaul/<lib>` resolves inside
// dist through small packages in dist/node_modules/@longhaul/<lib> whose `main` points at the
// compiled lib, so the output runs with plain `node dist/apps/<app>/src/main.js`, nothing
// preloaded. Compiling on load instead (@swc-node/register) keeps the compiler in every service:
// about 80 MiB of resident memory each.
//
// Apps tagged `type:web` in their project.json (the dashboard) run in a browser instead: see
// buildWebApp.
//
// Several builds may run at once (nx run-many): every file is written to a temp name and renamed.
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
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

function compile(source: string, target = join(out, relative(root, source)).replace(/\.ts$/, '.js'), options: Record<string, unknown> = swcOptions): { target: string; code: string } {
  const result = swc.transformFileSync(source, { ...options, filename: source, sourceMaps: true, sourceFileName: relative(dirname(target), source) });
  writeAtomically(`${target}.map`, result.map ?? '');
  writeAtomically(target, `${result.code}\n//# sourceMappingURL=${target.split(sep).pop()}.map\n`);
  return { target, code: result.code };
}

/**
 * Deletes output files under `folder` that the build no longer makes, so a removed module cannot
 * still load: compiled `.js` files and their maps, or with `everything` any file (a web app's
 * copied assets too). Another build's temp files are left alone.
 */
function prune(folder: string, kept: Set<string>, everything = false): void {
  if (!existsSync(folder)) return;
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, file);
    const ours = everything ? !path.endsWith('.tmp') : /\.js(\.map)?$/.test(path);
    if (ours && !kept.has(path.replace(/\.js\.map$/, '.js')) && statSync(path).isFile()) rmSync(path);
  }
}

/**
 * How a browser app's TypeScript becomes JavaScript: ES modules the browser loads as they are
 * (no bundler), for browsers of the last few years. No decorators, no Node.
 */
const webSwcOptions: Record<string, unknown> = {
  jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
  module: { type: 'es6' },
};

/** Files of a web app copied as they are. */
const WEB_ASSETS = new Set(['.html', '.css', '.svg', '.png', '.ico', '.webmanifest']);

/** `import … from '<x>'`, `export … from '<x>'`, `import '<x>'` and `import('<x>')` in compiled code. */
const IMPORT_SPECIFIER = /\b(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

/**
 * A browser resolves only URLs: every import left after compiling must name a sibling module's
 * compiled file (`./api.client.js`). Type-only imports (of the contracts, say) are gone by then.
 */
function checkBrowserImports(source: string, code: string): void {
  for (const match of code.matchAll(IMPORT_SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (!/^\.\.?\//.test(specifier) || !specifier.endsWith('.js')) {
      throw new Error(`${relative(root, source)}: a browser cannot load '${specifier}'. Import the app's own modules as './<name>.js', and anything else only with \`import type\`.`);
    }
  }
}

/**
 * Builds a browser app, `apps/<app>/src` → `dist/apps/<app>/` (no `src/` level: the folder is
 * what the api serves): each `.ts` compiled alone into an ES module, static assets copied, and
 * the third-party files `apps/<app>/vendor.json` names copied from node_modules (skipped with a
 * warning when the package is not installed). Returns the number of files written.
 */
function buildWebApp(app: string): number {
  const sourceRoot = join(root, 'apps', app, 'src');
  const target = join(out, 'apps', app);
  const kept = new Set<string>();
  for (const file of readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' })) {
    const source = join(sourceRoot, file);
    if (!statSync(source).isFile() || file.endsWith('.spec.ts') || file.endsWith('.d.ts')) continue;
    if (file.endsWith('.ts')) {
      const compiled = compile(source, join(target, file).replace(/\.ts$/, '.js'), webSwcOptions);
      checkBrowserImports(source, compiled.code);
      kept.add(compiled.target);
    } else if (WEB_ASSETS.has(extname(file))) {
      writeAtomically(join(target, file), readFileSync(source, 'utf8'));
      kept.add(join(target, file));
    }
  }
  const vendorList = join(root, 'apps', app, 'vendor.json');
  const vendor = existsSync(vendorList) ? (JSON.parse(readFileSync(vendorList, 'utf8')) as Record<string, string>) : {};
  for (const [path, from] of Object.entries(vendor)) {
    if (path === '//') continue;
    let file: string;
    try {
      file = require.resolve(from);
    } catch {
      console.warn(`[build] ${app}: ${from} is not installed; ${path} is left out`);
      continue;
    }
    mkdirSync(dirname(join(target, path)), { recursive: true });
    const temp = `${join(target, path)}.${process.pid}.tmp`;
    writeFileSync(temp, readFileSync(file));
    renameSync(temp, join(target, path));
    kept.add(join(target, path));
  }
  prune(target, kept, true);
  return kept.size;
}

function isWebApp(app: string): boolean {
  const project = JSON.parse(readFileSync(join(root, 'apps', app, 'project.json'), 'utf8')) as { tags?: string[] };
  return project.tags?.includes('type:web') ?? false;
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
for (const app of appNames) if (!existsSync(join(root, 'apps', app, 'project.json'))) throw new Error(`apps/${app} does not exist`);
const webApps = appNames.filter(isWebApp);
const services = appNames.filter((app) => !webApps.includes(app));
const started = performance.now();
let count = 0;
for (const app of webApps) count += buildWebApp(app);
// A browser app imports nothing of the libs at run time: building only it compiles no lib.
const folders = services.length === 0 ? [] : [...services.map((app) => `apps/${app}/src`), ...readdirSync(join(root, 'libs')).map((lib) => `libs/${lib}/src`)];
for (const folder of folders) {
  if (!existsSync(join(root, folder))) throw new Error(`${folder} does not exist`);
  const kept = new Set(sources(join(root, folder)).map((source) => compile(source).target));
  prune(join(out, folder), kept);
  count += kept.size;
}
if (services.length > 0) aliasPackages();
const what = services.length > 0 ? `${appNames.join(', ')} and the libs` : appNames.join(', ');
console.log(`[build] ${what}: ${count} files into ${relative(root, out)}/ in ${Math.round(performance.now() - started)} ms`);
