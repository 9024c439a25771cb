import type { z } from 'zod';
import type { QueuesView } from './queue.view';
import { QueuesViewSchema } from './queue.view.schema';

// Compile-time: the schema's type and the view are assignable both ways.
type Parsed = z.infer<typeof QueuesViewSchema>;
const bothWays = [(p: Parsed): QueuesView => p, (v: QueuesView): Parsed => v];

describe('QueuesViewSchema', () => {
  it('is the QueuesView interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
  });

  it('accepts an unknown lag and unknown dead-letter topics', () => {
    const lane = { lane: 'fast', depth: 0, running: 0, lag: null, oldestWaitingMs: 0, throughputPerSecond: 0.5, limits: { maxDepth: 10, maxLag: 20, maxDepthPerTenant: 5 }, admitting: true, tenants: [{ tenantId: '0b6f1c3e-6d1f-4c1a-9a57-2f4de0c7a6b1', depth: 3 }] };
    expect(QueuesViewSchema.safeParse({ lanes: [lane], deadLetterTopics: null, sampledAt: '2025-11-30T12:34:56.789Z' }).success).toBe(true);
  });
});
