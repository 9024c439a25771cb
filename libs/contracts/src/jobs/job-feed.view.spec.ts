import { JobFeedEventV1Schema } from './job-feed.view';

const base = { jobId: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', seq: 1, at: '2025-11-30T12:34:56.789Z' };

describe('JobFeedEventV1Schema', () => {
  it('parses each kind, telling them apart by kind', () => {
    const events = [
      { kind: 'job.status', ...base, status: 'pending', result: null, error: null },
      { kind: 'step.status', ...base, seq: 2, step: 'transcode', from: 'queued', to: 'running', attempt: 1, lane: 'fast', reason: null, retryAt: null, error: null },
      { kind: 'step.progress', ...base, seq: 3, step: 'transcode', attempt: 1, progress: 0.45 },
    ];
    expect(events.map((e) => JobFeedEventV1Schema.parse(e).kind)).toEqual(['job.status', 'step.status', 'step.progress']);
  });

  it('lets a client on version 1 read events that gained fields', () => {
    const parsed = JobFeedEventV1Schema.safeParse({ kind: 'step.progress', ...base, step: 'thumbnail', attempt: 2, progress: 1, worker: 'x' });
    expect(parsed.success).toBe(true);
  });

  it('refuses unknown kinds, positions below 1 and progress outside 0..1', () => {
    expect(JobFeedEventV1Schema.safeParse({ kind: 'job.deleted', ...base }).success).toBe(false);
    expect(JobFeedEventV1Schema.safeParse({ kind: 'job.status', ...base, seq: 0, status: 'pending', result: null, error: null }).success).toBe(false);
    expect(JobFeedEventV1Schema.safeParse({ kind: 'step.progress', ...base, step: 'transcode', attempt: 1, progress: 1.5 }).success).toBe(false);
  });
});
