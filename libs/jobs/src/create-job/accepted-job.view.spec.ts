import { acceptedFeedEntry } from '../job-feed/job-feed.writer';
import { acceptedJobView } from './accepted-job.view';
import type { JobAcceptance } from './job-acceptance.writer';

const now = new Date('2026-11-30T02:00:00.123Z');
const id = '01a22a15-fc2f-79bd-b4b2-6e01af207749';

function acceptance(): JobAcceptance {
  return {
    job: {
      id,
      tenantId: 't-1',
      type: 'video.process',
      lane: 'fast',
      source: { url: 'https://media.example.com/a.mp4' },
      outputs: { renditions: ['360p'] },
      metadata: { customer: 'c-1' },
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      retryPolicy: { maxAttempts: 4, baseMs: 1000, capMs: 60000 },
      sourceKey: null,
      media: null,
      notify: { webhookUrl: 'https://hooks.example.com/x' },
      steps: [
        { name: 'transcode', position: 0, status: 'queued', attempt: 1, dispatched: true },
        { name: 'thumbnail', position: 1, status: 'pending', attempt: 0, dispatched: false },
      ],
    },
    feedEntry: acceptedFeedEntry(id, now),
    firstStep: 'transcode',
    request: { topic: 't', type: 'TranscodeRequested.v1', aggregateType: 'job', aggregateId: id, payload: {} },
    key: null,
  };
}

describe('acceptedJobView', () => {
  it('shows the job as written: pending, the first step queued and dispatched, stamped with the database time', () => {
    const view = acceptedJobView(acceptance(), now);
    expect(view).toMatchObject({
      id,
      status: 'pending',
      lane: 'fast',
      metadata: { customer: 'c-1' },
      notify: { webhookUrl: 'https://hooks.example.com/x', email: null },
      result: null,
      error: null,
      downloads: [],
      traceId: '0af7651916cd43dd8448eb211c80319c',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      startedAt: null,
      finishedAt: null,
    });
    expect(view.steps.map((s) => [s.name, s.status, s.attempt, s.maxAttempts, s.queuedAt, s.retryAt])).toEqual([
      ['transcode', 'queued', 1, 4, now.toISOString(), null],
      ['thumbnail', 'pending', 0, 4, null, null],
    ]);
    expect(view.steps[0]!.attempts).toEqual([
      { attempt: 1, lane: 'fast', status: 'dispatched', worker: null, dispatchedAt: now.toISOString(), queuedAt: null, startedAt: null, finishedAt: null, error: null },
    ]);
    expect(view.steps[1]!.attempts).toEqual([]);
    expect(view.stage.state).toBe('awaiting_relay');
  });
});
