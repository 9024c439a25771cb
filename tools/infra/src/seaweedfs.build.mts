/**
 * Builds SeaweedFS's `weed` binary from its Go module, once.
 *
 * In:  Go on PATH, the Go module proxy.
 * Out: $LONGHAUL_HOME/bin/weed and bin/weed.version; the throwaway module that
 *      pins the version lives in $LONGHAUL_HOME/build/seaweedfs.
 * SeaweedFS publishes no tagged Go module versions, so a pseudo-version pins
 * one commit. A cold build is many minutes on two cores; the version file
 * makes every later run skip it, and changing SEAWEEDFS_MODULE_VERSION rebuilds.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runToLog } from './command.runner.mts';
import { elapsed, say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';
import { requireGo } from './toolchain.check.mts';

export const SEAWEEDFS_MODULE_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const SEAWEEDFS_PACKAGE = 'github.com/seaweedfs/seaweedfs/weed';

export function weedBinary(config: StackConfig): string {
  return join(config.layout.bin, 'weed');
}

export function isSeaweedfsBuilt(config: StackConfig): boolean {
  const versionFile = `${weedBinary(config)}.version`;
  return existsSync(weedBinary(config)) && existsSync(versionFile) && readFileSync(versionFile, 'utf8').trim() === SEAWEEDFS_MODULE_VERSION;
}

export async function buildSeaweedfs(config: StackConfig): Promise<void> {
  if (isSeaweedfsBuilt(config)) return;
  const go = requireGo();
  const moduleDir = join(config.layout.build, 'seaweedfs');
  const logFile = join(config.layout.logs, 'provision-s3.log');
  mkdirSync(moduleDir, { recursive: true });
  mkdirSync(config.layout.bin, { recursive: true });
  const run = (args: string[], what: string): Promise<void> =>
    runToLog(go, args, { component: 's3', cwd: moduleDir, logFile, heartbeatMs: 30_000, what });

  const startedAt = Date.now();
  say('s3', `building SeaweedFS ${SEAWEEDFS_MODULE_VERSION} from its Go module (first run only, about 12 minutes on 2 cores; log: ${logFile})`);
  if (!existsSync(join(moduleDir, 'go.mod'))) await run(['mod', 'init', 'longhaul-seaweedfs'], 'creating the build module');
  await run(['get', '-tool', `${SEAWEEDFS_PACKAGE}@${SEAWEEDFS_MODULE_VERSION}`], 'downloading SeaweedFS modules');
  const partial = `${weedBinary(config)}.partial`;
  await run(['build', '-o', partial, SEAWEEDFS_PACKAGE], 'compiling SeaweedFS');
  renameSync(partial, weedBinary(config));
  writeFileSync(`${weedBinary(config)}.version`, `${SEAWEEDFS_MODULE_VERSION}\n`);
  say('s3', `built ${weedBinary(config)} (${elapsed(startedAt)})`);
}
