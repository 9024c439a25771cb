/**
 * The dependency audit of CI: `npm audit --omit=dev --audit-level=high`, judged by
 * audit-outcome.policy.mts.
 *
 * In:  the repository's package-lock.json (npm reads it); optionally `--audit-level=<severity>`
 *      (default high).
 * Out: exit 0 when nothing at or above the level is found, 1 when something is (each finding
 *      listed), 2 when npm failed in any other way. When the registry's advisory endpoint
 *      cannot be asked (a mirror without it, an outage, no network) it prints a warning that
 *      says the audit did not run, and exits 0: a registry's limits do not fail CI, but they
 *      are never passed off as a clean audit.
 *
 *   npm run audit:deps
 */
import { spawnSync } from 'node:child_process';

import { classifyAudit, SEVERITIES, severitiesFrom, type AuditOutcome, type Severity } from './audit-outcome.policy.mts';

/** How to start npm: the one running this script under `npm run`, else `npm` on PATH. */
export interface NpmCommand {
  readonly command: string;
  readonly args: readonly string[];
}

export function defaultNpm(env: NodeJS.ProcessEnv = process.env): NpmCommand {
  const npmCli = env['npm_execpath'];
  return npmCli ? { command: process.execPath, args: [npmCli] } : { command: 'npm', args: [] };
}

/** Runs the audit and prints its verdict; returns the exit code. */
export function runAudit(npm: NpmCommand, level: Severity, print: (line: string) => void = console.log): number {
  const run = spawnSync(npm.command, [...npm.args, 'audit', '--omit=dev', `--audit-level=${level}`, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.error) {
    print(`npm audit could not be started: ${run.error.message}`);
    return 2;
  }
  const outcome = classifyAudit({ exitCode: run.status, stdout: run.stdout }, level);
  for (const line of report(outcome, level)) print(line);
  if (outcome.kind === 'broken' && run.stderr.trim() !== '') print(run.stderr.trim());
  return exitCodeOf(outcome);
}

export function exitCodeOf(outcome: AuditOutcome): number {
  return { passed: 0, unavailable: 0, failed: 1, broken: 2 }[outcome.kind];
}

/** The lines to print for an outcome. */
export function report(outcome: AuditOutcome, level: Severity): string[] {
  switch (outcome.kind) {
    case 'passed':
    case 'failed': {
      const counts = SEVERITIES.map((severity) => `${outcome.counts[severity]} ${severity}`).join(', ');
      const blocking = outcome.findings.filter((finding) => severitiesFrom(level).includes(finding.severity));
      return [
        `npm audit (production dependencies): ${counts}`,
        ...blocking.flatMap((finding) => [`  ${finding.severity.toUpperCase()} ${finding.name} ${finding.range}`, ...finding.via.map((via) => `    ${via}`)]),
        outcome.kind === 'failed'
          ? `AUDIT FAILED: ${blocking.length} production dependenc${blocking.length === 1 ? 'y has' : 'ies have'} ${level} or critical findings (npm audit --omit=dev for details)`
          : `audit passed: nothing ${level} or above`,
      ];
    }
    case 'unavailable': {
      const bar = '!'.repeat(78);
      return [
        bar,
        "WARNING: the registry's advisory endpoint is unavailable, so npm audit could not run.",
        `  ${outcome.reason}`,
        'AUDIT NOT RUN: no production dependency was checked for known vulnerabilities.',
        "  Run `npm audit --omit=dev --audit-level=high` where the registry serves advisories.",
        bar,
      ];
    }
    case 'broken':
      return [`AUDIT BROKEN: ${outcome.reason}`];
  }
}

function levelFrom(argv: readonly string[]): Severity {
  const given = argv.find((arg) => arg.startsWith('--audit-level='))?.slice('--audit-level='.length) ?? 'high';
  if (!(SEVERITIES as readonly string[]).includes(given)) throw new Error(`--audit-level must be one of ${SEVERITIES.join(', ')}`);
  return given as Severity;
}

if (import.meta.main) process.exitCode = runAudit(defaultNpm(), levelFrom(process.argv.slice(2)));
