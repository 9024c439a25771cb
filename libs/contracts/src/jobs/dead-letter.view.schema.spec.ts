import type { z } from 'zod';
import type { DeadLetterGroupView, DeadLetterListView, DeadLetterView } from './dead-letter.view';
import { DeadLetterGroupViewSchema, DeadLetterListViewSchema, DeadLetterViewSchema } from './dead-letter.view.schema';

// Compile-time: each schema's type and its view are assignable both ways.
const bothWays = [
  (p: z.infer<typeof DeadLetterViewSchema>): DeadLetterView => p,
  (v: DeadLetterView): z.infer<typeof DeadLetterViewSchema> => v,
  (p: z.infer<typeof DeadLetterGroupViewSchema>): DeadLetterGroupView => p,
  (v: DeadLetterGroupView): z.infer<typeof DeadLetterGroupViewSchema> => v,
  (p: z.infer<typeof DeadLetterListViewSchema>): DeadLetterListView => p,
  (v: DeadLetterListView): z.infer<typeof DeadLetterListViewSchema> => v,
];

describe('DeadLetterViewSchema', () => {
  it('is the dead-letter views, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(6);
  });

  it('accepts a dead letter and refuses a fingerprint that is not 16 hex characters', () => {
    const at = '2025-11-30T12:34:56.789Z';
    const letter: DeadLetterView = {
      id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', jobId: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7c', jobType: 'video.process', step: 'transcode',
      lane: 'fast', fingerprint: '0123456789abcdef', error: { code: 'step_timed_out', message: 'timed out', retryable: true }, payload: {},
      attempts: [], traceId: null, createdAt: at, replayedAt: null, replayAttempt: null,
    };
    expect(DeadLetterViewSchema.safeParse(letter).success).toBe(true);
    expect(DeadLetterViewSchema.safeParse({ ...letter, fingerprint: 'xyz' }).success).toBe(false);
  });
});
