import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { runAudit, type NpmCommand } from './audit.mts';

const dir = mkdtempSync(join(tmpdir(), 'longhaul-audit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for npm that checks its arguments, prints `stdout` and exits with `code`. */
function fakeNpm(name: string, stdout: string, code: number): NpmCommand {
  const script = join(dir, `${name}.cjs`);
  writeFileSync(
    script,
    [
      `const args = process.argv.slice(2).join(' ');`,
      `if (args !== 'audit --omit=dev --audit-level=high --json') { console.log('unexpected arguments: ' + args); process.exit(3); }`,
      `process.stdout.write(${JSON.stringify(stdout)});`,
      `process.exitCode = ${code};`,
    ].join('\n'),
  );
  return { command: process.execPath, args: [script] };
}

function run(npm: NpmCommand): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = runAudit(npm, 'high', (line) => lines.push(line));
  return { code, lines };
}

const BULK = 'https://registry.npmjs.org/-/npm/v1/security/advisories/bulk';
const clean = JSON.stringify({ auditReportVersion: 2, vulnerabilities: {}, metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0 } } });
const critical = JSON.stringify({
  auditReportVersion: 2,
  vulnerabilities: { minimist: { name: 'minimist', severity: 'critical', via: [{ title: 'Prototype Pollution', url: 'https://github.com/advisories/GHSA-1' }], range: '<=0.2.3' } },
  metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 1, total: 1 } },
});

describe('runAudit', () => {
  it('exits 0 on a clean report and says so', () => {
    const { code, lines } = run(fakeNpm('clean', clean, 0));
    assert.equal(code, 0);
    assert.match(lines.at(-1)!, /^audit passed/);
  });

  it('exits 1 on a critical finding, naming the package and the advisory', () => {
    const { code, lines } = run(fakeNpm('critical', critical, 1));
    assert.equal(code, 1);
    assert.ok(lines.includes('  CRITICAL minimist <=0.2.3'), lines.join('\n'));
    assert.ok(lines.includes('    Prototype Pollution https://github.com/advisories/GHSA-1'));
    assert.match(lines.at(-1)!, /^AUDIT FAILED: 1 production dependency has high or critical findings/);
  });

  it('goes on past an unavailable endpoint, loudly: the audit did not run', () => {
    const stdout = JSON.stringify({ message: `405 Method Not Allowed - POST ${BULK}`, method: 'POST', uri: BULK, statusCode: 405, body: '' });
    const { code, lines } = run(fakeNpm('mirror', stdout, 1));
    assert.equal(code, 0);
    assert.ok(lines.some((line) => line.startsWith('WARNING:')));
    assert.ok(lines.includes('AUDIT NOT RUN: no production dependency was checked for known vulnerabilities.'));
    assert.ok(lines.includes(`  405 Method Not Allowed - POST ${BULK}`));
  });

  it('exits 2 when npm fails in any other way', () => {
    assert.equal(run(fakeNpm('broken', 'not json', 1)).code, 2);
    assert.equal(run({ command: join(dir, 'no-such-npm'), args: [] }).code, 2);
  });
});
