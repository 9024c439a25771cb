import type { StepAttemptView } from '@longhaul/contracts';
import type { JobRecord, StepRecord } from '../job.repository';
import { jobStage } from './job-stage';

const t = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s));
const now = t(50);

function job(over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', tenantId: '0192f0c4-0000-7000-8000-000000000001', type: 'video.process', status: 'pending', lane: 'fast', source: {}, outputs: {},
    metadata: null, result: null, error: null, version: 0, lifecycleVersion: 0, traceparent: null, sourceKey: null, media: null, notify: null, retryPolicy: { maxAttempts: 5, baseMs: 1, capMs: 1 },
    createdAt: t(0), updatedAt: t(0), startedAt: null, finishedAt: null, ...over,
  };
}

function step(over: Partial<StepRecord> = {}): StepRecord {
  return {
    jobId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', name: 'transcode', position: 0, status: 'queued', attempt: 1, lane: 'fast', failures: 0,
    maxAttempts: 5, worker: null, queuedAt: t(0), startedAt: null, finishedAt: null, dispatchedAt: t(0), relayedAt: null, dueAt: null,
    heartbeatAt: null, progress: null, deadLetterId: null, result: null, error: null, updatedAt: t(0), ...over,
  };
}

const pending = step({ name: 'thumbnail', position: 1, status: 'pending', attempt: 0, dispatchedAt: null, queuedAt: null });
const none = new Map<string, StepAttemptView[]>();

describe('jobStage', () => {
  it('says a dispatched request no worker confirmed is waiting for the relay, and for how long', () => {
    expect(jobStage(job(), [step(), pending], none, null, now)).toMatchObject({ state: 'awaiting_relay', step: 'transcode', since: t(0).toISOString(), waitingMs: 50_000 });
  });

  it('says a confirmed request is queued in its lane since the confirmation', () => {
    expect(jobStage(job(), [step({ relayedAt: t(2) }), pending], none, null, now)).toMatchObject({ state: 'queued', lane: 'fast', since: t(2).toISOString() });
  });

  it('names the worker, attempt, heartbeat and progress of a running step', () => {
    const running = step({ status: 'running', attempt: 2, worker: 'transcoder-h-1', heartbeatAt: t(40), progress: 0.5, startedAt: t(3) });
    const attempts = new Map([['transcode', [{ attempt: 2, startedAt: t(30).toISOString() } as StepAttemptView]]]);
    expect(jobStage(job({ status: 'running' }), [running, pending], attempts, null, now)).toMatchObject({
      state: 'running', worker: 'transcoder-h-1', attempt: 2, heartbeatAt: t(40).toISOString(), progress: 0.5, since: t(30).toISOString(),
    });
  });

  it('says when a scheduled retry is due', () => {
    const waiting = step({ attempt: 2, failures: 1, dispatchedAt: null, dueAt: t(55), updatedAt: t(45) });
    expect(jobStage(job({ status: 'running' }), [waiting, pending], none, null, now)).toMatchObject({ state: 'retry_scheduled', retryAt: t(55).toISOString(), since: t(45).toISOString() });
  });

  it('points at the dead letter of a job whose retries ran out', () => {
    const dead = step({ status: 'dead', finishedAt: t(20), deadLetterId: 'dl-1' });
    expect(jobStage(job({ status: 'failed', finishedAt: t(20) }), [dead, { ...pending, status: 'cancelled' }], none, 'abcd', now)).toMatchObject({
      state: 'dead_lettered', step: 'transcode', deadLetterId: 'dl-1', fingerprint: 'abcd', since: t(20).toISOString(),
    });
  });

  it('reports finished jobs as such', () => {
    expect(jobStage(job({ status: 'completed', finishedAt: t(9) }), [], none, null, now)).toEqual({ state: 'completed', step: null, since: t(9).toISOString() });
    expect(jobStage(job({ status: 'failed', finishedAt: t(9) }), [step({ status: 'failed' })], none, null, now)).toMatchObject({ state: 'failed', step: 'transcode' });
  });
});
