import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The schemathesis release the suite is written for; `.ci/run` installs this one. */
export const SCHEMATHESIS_VERSION = '4.32.5';

/** Where `.ci/run` installs it: a virtualenv of its own under the stack's cache. */
export const SCHEMATHESIS_VENV = join(homedir(), '.cache', 'longhaul', `schemathesis-${SCHEMATHESIS_VERSION}`);

/** The schemathesis to run: `LONGHAUL_SCHEMATHESIS`, else the one `.ci/run` installs. */
export function schemathesisPath(): string {
  const chosen = process.env['LONGHAUL_SCHEMATHESIS'] ?? join(SCHEMATHESIS_VENV, 'bin', 'schemathesis');
  if (!existsSync(chosen)) {
    throw new Error(
      `schemathesis not found at ${chosen}: python3 -m venv ${SCHEMATHESIS_VENV} && ${SCHEMATHESIS_VENV}/bin/pip install schemathesis==${SCHEMATHESIS_VERSION} (or set LONGHAUL_SCHEMATHESIS)`,
    );
  }
  return chosen;
}

/** Options of {@link runSchemathesis}. */
export interface SchemathesisRun {
  /** `<api>/openapi.json`. */
  schemaUrl: string;
  /** Sent as `Authorization: Bearer <key>` with every request. */
  apiKey: string;
  /** Checks every answer must pass. */
  checks: readonly string[];
  /** Test cases per operation and phase. */
  maxExamples: number;
  /** OpenAPI paths left out, each with the reason in the caller. @defaultValue none */
  excludePaths?: readonly string[];
  /** Schemathesis hooks (a Python file). @defaultValue none */
  hooksFile?: string;
  /** Working folder: reports and anything else schemathesis writes. */
  workDir: string;
  /** Extra arguments, after the rest. @defaultValue none */
  extraArgs?: readonly string[];
}

/** How a run ended: its exit code and everything it printed. */
export interface SchemathesisResult {
  exitCode: number | null;
  output: string;
  command: string;
}

/**
 * Runs `schemathesis run` against the api as a child process and collects its output. Phases:
 * examples, coverage (boundary and invalid values of every schema), fuzzing, and stateful
 * (chains of calls along the document's links and those it infers: a submitted job read, followed,
 * cancelled…). 10 s per request; the example database lives in memory, so runs do not depend on
 * each other.
 * Hypothesis's health checks are off: they judge how easily data is generated, not the api.
 */
export function runSchemathesis(run: SchemathesisRun): Promise<SchemathesisResult> {
  mkdirSync(run.workDir, { recursive: true });
  const args = [
    'run',
    run.schemaUrl,
    '--checks',
    run.checks.join(','),
    '--header',
    `Authorization: Bearer ${run.apiKey}`,
    '--max-examples',
    String(run.maxExamples),
    // One worker: with two, Hypothesis sometimes fails inside CPython 3.11's `ast.parse`, which is
    // not thread-safe ("AST constructor recursion depth mismatch"), and the run errors.
    '--workers',
    '1',
    '--request-timeout',
    '10',
    '--wait-for-schema',
    '30',
    '--suppress-health-check',
    'all',
    '--generation-database',
    ':memory:',
    '--report',
    'junit',
    '--report-dir',
    join(run.workDir, 'report'),
    '--no-color',
    ...(run.excludePaths ?? []).flatMap((path) => ['--exclude-path', path]),
    ...(run.extraArgs ?? []),
  ];
  const executable = schemathesisPath();
  const env = { ...process.env, ...(run.hooksFile ? { SCHEMATHESIS_HOOKS: run.hooksFile } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd: run.workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (exitCode) => {
      // The key is in the command line: never print it.
      const command = [executable, ...args].join(' ').replace(run.apiKey, '<key>');
      resolve({ exitCode, output: Buffer.concat(chunks).toString('utf8').replaceAll(run.apiKey, '<key>'), command });
    });
  });
}
