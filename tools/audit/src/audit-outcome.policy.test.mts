import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { classifyAudit } from './audit-outcome.policy.mts';

const BULK = 'https://registry.npmjs.org/-/npm/v1/security/advisories/bulk';

/** A report as npm 11 writes it with --json. */
function reportJson(counts: Partial<Record<'info' | 'low' | 'moderate' | 'high' | 'critical', number>>, vulnerabilities: Record<string, unknown> = {}): string {
  const all = { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...counts };
  const total = Object.values(all).reduce((a, b) => a + b, 0);
  return JSON.stringify({ auditReportVersion: 2, vulnerabilities, metadata: { vulnerabilities: { ...all, total }, dependencies: { prod: 10, dev: 0, total: 10 } } });
}

const MINIMIST = {
  name: 'minimist',
  severity: 'critical',
  via: [{ title: 'Prototype Pollution in minimist', url: 'https://github.com/advisories/GHSA-xvch-5gv4-984h', severity: 'critical', range: '<0.2.4' }],
  range: '<=0.2.3',
};
const MKDIRP = { name: 'mkdirp', severity: 'critical', via: ['minimist'], range: '0.4.1 - 0.5.1' };
const SEMVER = { name: 'semver', severity: 'moderate', via: [{ title: 'ReDoS in semver', url: 'https://github.com/advisories/GHSA-c2qf-rxjj-qqgw' }], range: '<5.7.2' };

/** npm's --json answer when the advisory endpoint answered with an error (lib/utils/audit-error.js). */
const endpointError = (statusCode: number | undefined, message: string) => JSON.stringify({ message, method: 'POST', uri: BULK, headers: {}, statusCode, body: '' });

describe('classifyAudit', () => {
  it('passes a clean report', () => {
    const outcome = classifyAudit({ exitCode: 0, stdout: reportJson({}) }, 'high');
    assert.equal(outcome.kind, 'passed');
  });

  it('passes findings below the level, and keeps them for the summary', () => {
    const outcome = classifyAudit({ exitCode: 0, stdout: reportJson({ moderate: 1, low: 2 }, { semver: SEMVER }) }, 'high');
    assert.equal(outcome.kind, 'passed');
    assert.equal(outcome.kind === 'passed' && outcome.counts.moderate, 1);
  });

  it('fails on a high or critical finding, listing them worst first', () => {
    const outcome = classifyAudit({ exitCode: 1, stdout: reportJson({ critical: 2, moderate: 1 }, { semver: SEMVER, mkdirp: MKDIRP, minimist: MINIMIST }) }, 'high');
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind !== 'failed') return;
    assert.deepEqual(
      outcome.findings.map((f) => [f.name, f.severity]),
      [['minimist', 'critical'], ['mkdirp', 'critical'], ['semver', 'moderate']],
    );
    assert.deepEqual(outcome.findings[0]!.via, ['Prototype Pollution in minimist https://github.com/advisories/GHSA-xvch-5gv4-984h']);
    assert.equal(classifyAudit({ exitCode: 1, stdout: reportJson({ high: 1 }) }, 'high').kind, 'failed');
  });

  it('judges a report by its findings even when npm exited 0', () => {
    assert.equal(classifyAudit({ exitCode: 0, stdout: reportJson({ high: 1 }) }, 'high').kind, 'failed');
  });

  it('honours a lower level', () => {
    assert.equal(classifyAudit({ exitCode: 1, stdout: reportJson({ moderate: 1 }) }, 'moderate').kind, 'failed');
  });

  it('calls a mirror that refuses the method, or lacks the endpoint, unavailable', () => {
    for (const status of [404, 405, 410, 501, 502, 503, 504]) {
      const outcome = classifyAudit({ exitCode: 1, stdout: endpointError(status, `${status} Whatever - POST ${BULK}`) }, 'high');
      assert.equal(outcome.kind, 'unavailable', String(status));
    }
  });

  it('reads the answer this registry mirror gives as unavailable, with its reason', () => {
    const mirror = JSON.stringify({
      message: `405 Method Not Allowed - POST ${BULK}`,
      method: 'POST',
      uri: BULK,
      headers: { allow: ['GET,HEAD'], 'content-length': ['0'] },
      statusCode: 405,
      body: '',
      error: { summary: '', detail: '' },
    });
    assert.deepEqual(classifyAudit({ exitCode: 1, stdout: mirror }, 'high'), { kind: 'unavailable', reason: `405 Method Not Allowed - POST ${BULK}` });
  });

  it('calls a network failure on the way to the endpoint unavailable', () => {
    for (const reason of ['getaddrinfo ENOTFOUND registry.npmjs.org', 'connect ECONNREFUSED 127.0.0.1:4873', 'socket hang up']) {
      const outcome = classifyAudit({ exitCode: 1, stdout: endpointError(undefined, `request to ${BULK} failed, reason: ${reason}`) }, 'high');
      assert.equal(outcome.kind, 'unavailable', reason);
    }
  });

  it('never excuses other failures: a bad request, an auth error, npm itself', () => {
    for (const status of [400, 401, 403, 422, 500]) {
      assert.equal(classifyAudit({ exitCode: 1, stdout: endpointError(status, `${status} - POST ${BULK}`) }, 'high').kind, 'broken', String(status));
    }
    // An error that does not come from the advisory endpoint (a broken lockfile, say).
    const lockfile = JSON.stringify({ error: { code: 'ENOLOCK', summary: 'This command requires an existing lockfile.', detail: '' } });
    assert.equal(classifyAudit({ exitCode: 1, stdout: lockfile }, 'high').kind, 'broken');
    const elsewhere = JSON.stringify({ message: 'request to https://registry.npmjs.org/left-pad failed, reason: ENOTFOUND', uri: 'https://registry.npmjs.org/left-pad' });
    assert.equal(classifyAudit({ exitCode: 1, stdout: elsewhere }, 'high').kind, 'broken');
    assert.equal(classifyAudit({ exitCode: 1, stdout: 'npm ERR! something' }, 'high').kind, 'broken');
    assert.equal(classifyAudit({ exitCode: 1, stdout: '' }, 'high').kind, 'broken');
  });
});
