/**
 * Resolves a checked-in POM (tools/infra/maven/*.pom.xml) into one flat folder of jars.
 *
 * In:  the POM; Maven Central through the machine's `mvn`.
 * Out: `outputDir` holding every runtime jar, plus a `.resolved` marker with the
 *      POM's hash. Next time the same POM is a no-op; an edited POM resolves again.
 * Maven's own download cache is `$LONGHAUL_HOME/downloads/maven`, so a wiped
 * jar folder is rebuilt without the network.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { runToLog } from './command.runner.mts';
import { InfraError } from './infra.errors.mts';
import { elapsed, say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';
import { requireMaven } from './toolchain.check.mts';

export interface JarSet {
  /** Short name: the download folder and the progress label. */
  readonly name: string;
  /** File under tools/infra/maven/. */
  readonly pom: string;
  readonly outputDir: string;
}

const MARKER = '.resolved';

export function isResolved(jarSet: JarSet, config: StackConfig): boolean {
  const marker = join(jarSet.outputDir, MARKER);
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === pomHash(jarSet, config);
}

export async function resolveJars(component: string, jarSet: JarSet, config: StackConfig): Promise<void> {
  if (isResolved(jarSet, config)) return;
  const mvn = requireMaven();
  const workDir = join(config.layout.downloads, jarSet.name);
  // Staged outside the jar tree: a half-filled folder under plugin.path would load as a plugin.
  const staging = join(workDir, 'jars.partial');
  const logFile = join(config.layout.logs, `provision-${jarSet.name}.log`);
  mkdirSync(workDir, { recursive: true });
  copyFileSync(pomPath(jarSet, config), join(workDir, 'pom.xml'));
  rmSync(staging, { recursive: true, force: true });

  const startedAt = Date.now();
  say(component, `resolving ${jarSet.name} jars from Maven Central (only when missing or its POM changed; log: ${logFile})`);
  await runToLog(
    mvn,
    [
      '-B',
      '--no-transfer-progress',
      `-Dmaven.repo.local=${join(config.layout.downloads, 'maven')}`,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${staging}`,
      '-DincludeScope=runtime',
    ],
    { component, cwd: workDir, logFile, heartbeatMs: 20_000, what: `resolving ${jarSet.name} jars` },
  );
  const jars = readdirSync(staging).filter((file) => file.endsWith('.jar'));
  if (jars.length === 0) throw new InfraError('PROVISION_FAILED', `Maven resolved no jars for ${jarSet.name}; see ${logFile}`, logFile);
  writeFileSync(join(staging, MARKER), `${pomHash(jarSet, config)}\n`);
  rmSync(jarSet.outputDir, { recursive: true, force: true });
  mkdirSync(dirname(jarSet.outputDir), { recursive: true });
  renameSync(staging, jarSet.outputDir);
  say(component, `${jars.length} ${jarSet.name} jars ready in ${jarSet.outputDir} (${elapsed(startedAt)})`);
}

function pomPath(jarSet: JarSet, config: StackConfig): string {
  return join(config.repoRoot, 'tools', 'infra', 'maven', jarSet.pom);
}

function pomHash(jarSet: JarSet, config: StackConfig): string {
  return createHash('sha256').update(readFileSync(pomPath(jarSet, config))).digest('hex');
}
