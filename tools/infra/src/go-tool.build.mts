/**
 * Builds a server the stack runs from its Go module, once.
 *
 * In:  Go on PATH, the Go module proxy, a GoTool saying what to build.
 * Out: $LONGHAUL_HOME/bin/<binaryName> and bin/<binaryName>.version; the throwaway
 *      module that pins the version (`go get -tool`) lives in $LONGHAUL_HOME/build/<moduleName>.
 * A binary counts as built when it exists and its version file names the pinned
 * moduleVersion, so every later run skips the build and changing the version rebuilds.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runToLog } from './command.runner.mts';
import { elapsed, say } from './progress.output.mts';
import type { ComponentName, StackConfig } from './stack.config.mts';
import { requireGo } from './toolchain.check.mts';

/** How often a build that is still running says so; cold builds take minutes. */
const HEARTBEAT_MS = 30_000;

/** One Go program the stack runs; binaryName and moduleName are cache paths, so renaming either builds it again. */
export interface GoTool {
  /** The component it serves: its progress lines and its log, `logs/provision-<component>.log`. */
  readonly component: ComponentName;
  /** Name for people, in progress lines ("Jaeger"). */
  readonly title: string;
  /** File name under bin/ (the version file is `<binaryName>.version`). */
  readonly binaryName: string;
  /** Folder under build/ for the throwaway module, which is called `longhaul-<moduleName>`. */
  readonly moduleName: string;
  /** The main package to build, fetched as `<packagePath>@<moduleVersion>`. */
  readonly packagePath: string;
  /** The Go module version to pin; written to the version file. */
  readonly moduleVersion: string;
  /** `-ldflags` for `go build`; none when undefined. */
  readonly ldflags?: string;
  /** Added to the environment of every `go` command; the inherited environment alone when undefined. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a first build takes on two cores, for the progress line ("a few minutes"). */
  readonly coldBuild: string;
}

export function goToolBinary(config: StackConfig, tool: GoTool): string {
  return join(config.layout.bin, tool.binaryName);
}

export function isGoToolBuilt(config: StackConfig, tool: GoTool): boolean {
  const binary = goToolBinary(config, tool);
  const versionFile = `${binary}.version`;
  return existsSync(binary) && existsSync(versionFile) && readFileSync(versionFile, 'utf8').trim() === tool.moduleVersion;
}

export async function buildGoTool(config: StackConfig, tool: GoTool): Promise<void> {
  if (isGoToolBuilt(config, tool)) return;
  const go = requireGo();
  const binary = goToolBinary(config, tool);
  const moduleDir = join(config.layout.build, tool.moduleName);
  const logFile = join(config.layout.logs, `provision-${tool.component}.log`);
  mkdirSync(moduleDir, { recursive: true });
  mkdirSync(config.layout.bin, { recursive: true });
  const env = tool.env ? { ...process.env, ...tool.env } : undefined;
  const run = (args: string[], what: string): Promise<void> =>
    runToLog(go, args, { component: tool.component, cwd: moduleDir, logFile, env, heartbeatMs: HEARTBEAT_MS, what });

  const startedAt = Date.now();
  say(tool.component, `building ${tool.title} ${tool.moduleVersion} from its Go module (first run only, ${tool.coldBuild} on 2 cores; log: ${logFile})`);
  if (!existsSync(join(moduleDir, 'go.mod'))) await run(['mod', 'init', `longhaul-${tool.moduleName}`], 'creating the build module');
  await run(['get', '-tool', `${tool.packagePath}@${tool.moduleVersion}`], `downloading ${tool.title} modules`);
  // Built beside the binary and renamed over it, so an interrupted build never leaves a binary the version check would accept.
  const partial = `${binary}.partial`;
  const ldflags = tool.ldflags === undefined ? [] : [`-ldflags=${tool.ldflags}`];
  await run(['build', ...ldflags, '-o', partial, tool.packagePath], `compiling ${tool.title}`);
  renameSync(partial, binary);
  writeFileSync(`${binary}.version`, `${tool.moduleVersion}\n`);
  say(tool.component, `built ${binary} (${elapsed(startedAt)})`);
}
