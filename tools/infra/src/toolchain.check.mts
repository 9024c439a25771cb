/**
 * Finds the machine tools the native stack needs and says what to install when one is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { findOnPath } from './command.runner.mts';
import { InfraError } from './infra.errors.mts';

const MIN_JAVA = 17;
/** `go get -tool` (how Jaeger is built) exists from Go 1.24; newer toolchains that Jaeger's go.mod asks for are fetched by GOTOOLCHAIN=auto. */
const MIN_GO_MINOR = 24;

/** Path to a java >= 17: $JAVA_HOME/bin/java first, then PATH. */
export function requireJava(): string {
  const javaHome = process.env['JAVA_HOME'];
  const fromHome = javaHome ? join(javaHome, 'bin', 'java') : undefined;
  const java = fromHome && existsSync(fromHome) ? fromHome : findOnPath('java');
  if (!java) throw missing('java', `a Java ${MIN_JAVA}+ runtime`, 'openjdk-17-jre-headless');
  // `java -version` prints to stderr.
  const banner = spawnSync(java, ['-version'], { encoding: 'utf8' }).stderr ?? '';
  const major = Number(/version "(\d+)/.exec(banner)?.[1] ?? '0');
  if (major < MIN_JAVA) {
    throw new InfraError('TOOL_MISSING', `${java} is Java ${major}; Kafka 4 needs Java ${MIN_JAVA}+ (apt-get install openjdk-17-jre-headless, or set JAVA_HOME)`);
  }
  return java;
}

export function requireMaven(): string {
  const mvn = findOnPath('mvn');
  if (!mvn) throw missing('mvn', 'Apache Maven (it downloads the Kafka and Debezium jars)', 'maven');
  return mvn;
}

export function requireGo(): string {
  const go = findOnPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go) throw missing('go', `Go 1.${MIN_GO_MINOR}+ (it builds Jaeger, SeaweedFS and Mailpit from their Go modules)`, 'golang');
  const version = execFileSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
  const minor = Number(/^go1\.(\d+)/.exec(version)?.[1] ?? '0');
  if (minor < MIN_GO_MINOR) {
    throw new InfraError('TOOL_MISSING', `${go} is ${version}; Jaeger needs Go 1.${MIN_GO_MINOR}+ (install a newer Go from go.dev/dl or a backports golang package)`);
  }
  return go;
}

function missing(tool: string, what: string, debianPackage: string): InfraError {
  return new InfraError(
    'TOOL_MISSING',
    `${tool} not found on PATH: the native stack needs ${what}. ` +
      `On Debian/Ubuntu: apt-get install ${debianPackage}  (all at once: apt-get install openjdk-17-jre-headless maven golang)`,
  );
}

