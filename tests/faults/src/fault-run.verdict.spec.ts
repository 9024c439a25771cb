import type { LedgerRow, SubmitRecord } from '@longhaul/testing';
import type { RunEvidence } from './evidence/run-evidence.collector';
import type { ScheduledFault } from './faults/fault.schedule';
import type { Fault } from './faults/fault.types';
import { judgeFaultRun } from './fault-run.verdict';

const JOB = '0190a1b2-0000-7000-8000-000000000001';

const outage = (name: string, mustAcceptSubmits: boolean): Fault => ({
  name,
  mustAcceptSubmits,
  target: 'stack',
  run: () => Promise.reject(new Error('not run in unit tests')),
});

const scheduled = (fault: Fault, window?: { from: number; to: number }): ScheduledFault => ({
  fault,
  effect: {
    injectedAt: 0,
    restoreIssuedAt: 100,
    restoredAt: 150,
    note: '',
    ...(window ? { downWindow: { label: `${fault.name} down`, ...window } } : {}),
  },
  probe: { outcome: 'completed', jobId: 'probe', completedAt: 200 },
});

const ledger = (effect: string, step: string | null, attempt: number | null): LedgerRow => ({ effect, jobId: JOB, step, attempt });

function cleanEvidence(): RunEvidence {
  return {
    jobs: [{ id: JOB, status: 'completed', version: 2 }],
    steps: [
      { jobId: JOB, name: 'transcode', status: 'succeeded', attempt: 1 },
      { jobId: JOB, name: 'thumbnail', status: 'succeeded', attempt: 1 },
    ],
    ledgers: {
      api: [ledger('step.succeeded', 'transcode', 1), ledger('step.succeeded', 'thumbnail', 1), ledger('job.finished', null, null)],
      transcoder: [ledger('work_item.succeeded', 'transcode', 1)],
      thumbnailer: [ledger('work_item.succeeded', 'thumbnail', 1)],
      notifier: [ledger('notification.recorded', null, 1), ledger('notification.recorded', null, 2)],
    },
    deadLetters: 0,
    lifecycle: [1, 2].map((version) => ({
      topic: 'job.lifecycle',
      partition: 0,
      offset: String(version),
      key: JOB,
      value: JSON.stringify({ jobId: JOB, version }),
      headers: { id: `e${version}`, eventType: 'JobStarted.v1' },
    })),
    lifecycleComplete: true,
    deadLetteredMessages: { 'job.events.dlq': 2, 'job.control.dlq': 0 },
    recordedDeadLetteredMessages: { 'job.events.dlq': 2 },
    duplicatesSuppressed: {},
  };
}

const records: SubmitRecord[] = [
  { key: 'k1', kind: 'load', jobId: JOB, attempts: [{ at: 50, status: 202, jobId: JOB }] },
  { key: 'k2', kind: 'load', jobId: null, attempts: [{ at: 60, status: 503 }, { at: 400, status: 400 }] },
];

describe('judgeFaultRun', () => {
  it('passes every check on a clean run', () => {
    const verdict = judgeFaultRun(records.slice(0, 1), [scheduled(outage('kafka', true), { from: 40, to: 55 })], cleanEvidence());
    expect(Object.values(verdict).filter((c) => !c.passed)).toEqual([]);
    expect(verdict.acceptedWhileDown.detail).toBe('kafka down: 1 of 1 accepted');
  });

  it('fails an outage window with a refused submit, and one with no submit at all', () => {
    const faults = [scheduled(outage('kafka', true), { from: 55, to: 70 }), scheduled(outage('connect', true), { from: 1000, to: 2000 })];
    const verdict = judgeFaultRun(records, faults, cleanEvidence());
    expect(verdict.acceptedWhileDown.violations).toEqual([
      { window: 'kafka down', key: 'k2', at: 60, status: 503 },
      { window: 'connect down', problem: 'no submit was made while it was down' },
    ]);
    expect(verdict.submitsAccepted.violations).toEqual([{ key: 'k2', kind: 'load', last: { at: 400, status: 400 } }]);
  });

  it('fails when the api recorded fewer dead-lettered messages than a dead-letter topic holds', () => {
    const evidence = { ...cleanEvidence(), recordedDeadLetteredMessages: { 'job.events.dlq': 1 } };
    const verdict = judgeFaultRun(records.slice(0, 1), [], evidence);
    expect(verdict.deadLettersRecorded).toMatchObject({
      passed: false,
      violations: [{ topic: 'job.events.dlq', inKafka: 2, recorded: 1 }],
      detail: expect.stringMatching(/^1 recorded of 2 in the dead-letter topics/),
    });
  });

  it('fails a required outage that never happened', () => {
    const faults: ScheduledFault[] = [{ fault: outage('kafka', true), effect: null, probe: null, error: 'stop failed' }];
    const verdict = judgeFaultRun(records.slice(0, 1), faults, cleanEvidence());
    expect(verdict.acceptedWhileDown.passed).toBe(false);
    expect(verdict.jobsAndProbesCompleted.violations).toEqual([{ fault: 'kafka', probe: 'not run', jobId: null, error: 'stop failed' }]);
  });

  it('fails an empty ledger, a repeated effect and a stale result', () => {
    const evidence = cleanEvidence();
    evidence.ledgers.thumbnailer = [];
    evidence.ledgers.api.push(ledger('job.finished', null, null));
    evidence.steps[0]!.attempt = 2;
    const verdict = judgeFaultRun(records.slice(0, 1), [], evidence);
    expect(verdict.effectsOnce.violations).toEqual([
      { ledger: 'api', effect: 'job.finished', key: `jobId=${JOB}`, count: 2 },
      { ledger: 'thumbnailer', problem: 'no rows: is LONGHAUL_EFFECT_LEDGER honoured?' },
    ]);
    expect(verdict.noSupersededResult.violations).toEqual([{ jobId: JOB, step: 'transcode', currentAttempt: 2, appliedAttempts: [1] }]);
  });

  it('fails a lost job, an unfinished one and a lifecycle that stops short', () => {
    const evidence = cleanEvidence();
    evidence.jobs = [{ id: JOB, status: 'running', version: 3 }];
    const lost: SubmitRecord = { key: 'k3', kind: 'probe', jobId: 'gone', attempts: [{ at: 1, status: 202, jobId: 'gone' }] };
    const verdict = judgeFaultRun([records[0]!, lost], [], evidence);
    expect(verdict.noJobLost.violations).toEqual([
      { jobId: 'gone', problem: 'accepted but not in api.jobs' },
      { jobId: JOB, problem: 'still running' },
    ]);
    expect(verdict.lifecycleOrder.violations).toEqual([{ jobId: JOB, kind: 'tail_missing', detail: 'events end at v2, the job is at v3' }]);
    expect(verdict.jobsAndProbesCompleted.violations).toEqual([{ problem: 'no job completed' }]);
  });
});
