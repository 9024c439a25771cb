import type { z } from 'zod';
import type { JobView, MediaInfoView, StepAttemptView } from './job.view';
import { JobViewSchema, MediaInfoViewSchema, StepAttemptViewSchema } from './job.view.schema';

// Compile-time: each schema's type and its hand-written view are assignable both ways, so a field
// added, dropped, made optional or nullable on one side only fails the type check.
type Parsed = z.infer<typeof JobViewSchema>;
const toView = (parsed: Parsed): JobView => parsed;
const toParsed = (view: JobView): Parsed => view;
const mediaBothWays = [(m: z.infer<typeof MediaInfoViewSchema>): MediaInfoView => m, (m: MediaInfoView): z.infer<typeof MediaInfoViewSchema> => m];
const attemptBothWays = [(a: z.infer<typeof StepAttemptViewSchema>): StepAttemptView => a, (a: StepAttemptView): z.infer<typeof StepAttemptViewSchema> => a];

const at = '2025-11-30T12:34:56.789Z';

/** A running job as the api shows it. */
const SAMPLE_JOB_VIEW: JobView = {
  id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
  type: 'video.process',
  status: 'running',
  stage: { state: 'running', step: 'transcode', since: at, lane: 'fast', attempt: 1, worker: 'w-1', heartbeatAt: at, progress: 0.5 },
  lane: 'fast',
  source: { uploadId: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7c' },
  outputs: {},
  metadata: { customer: 'c-1' },
  notify: { webhookUrl: null, email: 'ops@example.com' },
  media: {
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2', durationSeconds: 10, width: 1920, height: 1080, rotation: 0, videoCodec: 'h264',
    frameRate: 30, audioCodec: 'aac', bitRate: 5_000_000, sizeBytes: 6_000_000, videoStreamIndex: 0, audioStreamIndex: 1,
  },
  result: null,
  downloads: [{ kind: 'mp4', rendition: '720p', url: '/v1/jobs/0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b/files/transcode/720p/video.mp4' }],
  error: null,
  steps: [
    {
      name: 'transcode', status: 'running', attempt: 1, lane: 'fast', failures: 0, maxAttempts: 5, worker: 'w-1', queuedAt: at, startedAt: at,
      finishedAt: null, relayedAt: at, heartbeatAt: at, progress: 0.5, retryAt: null, result: null, error: null,
      attempts: [{ attempt: 1, lane: 'fast', status: 'running', worker: 'w-1', dispatchedAt: at, queuedAt: at, startedAt: at, finishedAt: null, error: null }],
    },
  ],
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  createdAt: at,
  updatedAt: at,
  startedAt: at,
  finishedAt: null,
};

describe('JobViewSchema', () => {
  it('is the JobView interface, both ways (checked by the compiler)', () => {
    expect([toView, toParsed, ...mediaBothWays, ...attemptBothWays]).toHaveLength(6);
  });

  it('accepts a job view and refuses unknown statuses, non-ISO times and missing members', () => {
    expect(JobViewSchema.parse(SAMPLE_JOB_VIEW)).toEqual(SAMPLE_JOB_VIEW);
    expect(JobViewSchema.safeParse({ ...SAMPLE_JOB_VIEW, status: 'done' }).success).toBe(false);
    expect(JobViewSchema.safeParse({ ...SAMPLE_JOB_VIEW, createdAt: 'yesterday' }).success).toBe(false);
    expect(JobViewSchema.safeParse({ ...SAMPLE_JOB_VIEW, notify: undefined }).success).toBe(false);
  });
});
