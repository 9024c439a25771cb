/**
 * Builds the Jaeger binary from its Go module, once.
 *
 * In:  Go on PATH, the Go module proxy.
 * Out: $LONGHAUL_HOME/bin/jaeger and bin/jaeger.version; the throwaway module
 *      that pins the version lives in $LONGHAUL_HOME/build/jaeger.
 * A cold build is several minutes on two cores; the version file makes every
 * later run skip it, and changing JAEGER_VERSION rebuilds.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runToLog } from './command.runner.mts';
import { elapsed, say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';
import { requireGo } from './toolchain.check.mts';

/** Jaeger's Go module tags the v2 binary (cmd/jaeger) with the v1 line: v1.76.0 is Jaeger v2.13.0. */
export const JAEGER_MODULE_VERSION = 'v1.76.0';
const JAEGER_RELEASE = 'v2.13.0';
const JAEGER_PACKAGE = 'github.com/jaegertracing/jaeger/cmd/jaeger';

export function jaegerBinary(config: StackConfig): string {
  return join(config.layout.bin, 'jaeger');
}

export function isJaegerBuilt(config: StackConfig): boolean {
  const versionFile = `${jaegerBinary(config)}.version`;
  return existsSync(jaegerBinary(config)) && existsSync(versionFile) && readFileSync(versionFile, 'utf8').trim() === JAEGER_MODULE_VERSION;
}

export async function buildJaeger(config: StackConfig): Promise<void> {
  if (isJaegerBuilt(config)) return;
  const go = requireGo();
  const moduleDir = join(config.layout.build, 'jaeger');
  const logFile = join(config.layout.logs, 'provision-jaeger.log');
  mkdirSync(moduleDir, { recursive: true });
  mkdirSync(config.layout.bin, { recursive: true });
  const run = (args: string[], what: string): Promise<void> =>
    runToLog(go, args, { component: 'jaeger', cwd: moduleDir, logFile, heartbeatMs: 30_000, what });

  const startedAt = Date.now();
  say('jaeger', `building Jaeger ${JAEGER_MODULE_VERSION} from its Go module (first run only, minutes on 2 cores; log: ${logFile})`);
  if (!existsSync(join(moduleDir, 'go.mod'))) await run(['mod', 'init', 'longhaul-jaeger'], 'creating the build module');
  await run(['get', '-tool', `${JAEGER_PACKAGE}@${JAEGER_MODULE_VERSION}`], 'downloading Jaeger modules');
  const partial = `${jaegerBinary(config)}.partial`;
  const ldflags = `-X github.com/jaegertracing/jaeger/internal/version.latestVersion=${JAEGER_RELEASE}`;
  await run(['build', `-ldflags=${ldflags}`, '-o', partial, JAEGER_PACKAGE], 'compiling Jaeger');
  renameSync(partial, jaegerBinary(config));
  writeFileSync(`${jaegerBinary(config)}.version`, `${JAEGER_MODULE_VERSION}\n`);
  say('jaeger', `built ${jaegerBinary(config)} (${elapsed(startedAt)})`);
}
