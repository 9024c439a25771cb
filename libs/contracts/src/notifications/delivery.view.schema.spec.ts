import type { z } from 'zod';
import type { DeliveryView, JobDeliveriesView } from './delivery.view';
import { DeliveryViewSchema, JobDeliveriesViewSchema } from './delivery.view.schema';

// Compile-time: each schema's type and its view are assignable both ways.
const bothWays = [
  (p: z.infer<typeof DeliveryViewSchema>): DeliveryView => p,
  (v: DeliveryView): z.infer<typeof DeliveryViewSchema> => v,
  (p: z.infer<typeof JobDeliveriesViewSchema>): JobDeliveriesView => p,
  (v: JobDeliveriesView): z.infer<typeof JobDeliveriesViewSchema> => v,
];

describe('DeliveryViewSchema', () => {
  it('is the delivery views, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(4);
  });

  it('accepts a retrying webhook delivery', () => {
    const at = '2025-11-30T12:34:56.789Z';
    const delivery: DeliveryView = {
      id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', channel: 'webhook', target: 'https://hooks.example.com/x', endpointId: null, event: 'job.completed',
      messageId: 'msg_0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', status: 'retrying',
      attempts: [{ attempt: 1, at, durationMs: 12, outcome: 'retryable', statusCode: 503, error: { code: 'webhook_rejected', message: '503' } }],
      nextAttemptAt: at, createdAt: at, updatedAt: at,
    };
    expect(JobDeliveriesViewSchema.safeParse({ items: [delivery] }).success).toBe(true);
  });
});
