import type { z } from 'zod';
import type { WebhookEndpointListView, WebhookEndpointView } from './webhook-endpoint.dto';
import { WebhookEndpointListViewSchema, WebhookEndpointViewSchema } from './webhook-endpoint.view.schema';

// Compile-time: each schema's type and its view are assignable both ways.
const bothWays = [
  (p: z.infer<typeof WebhookEndpointViewSchema>): WebhookEndpointView => p,
  (v: WebhookEndpointView): z.infer<typeof WebhookEndpointViewSchema> => v,
  (p: z.infer<typeof WebhookEndpointListViewSchema>): WebhookEndpointListView => p,
  (v: WebhookEndpointListView): z.infer<typeof WebhookEndpointListViewSchema> => v,
];

describe('WebhookEndpointViewSchema', () => {
  it('is the webhook endpoint views, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(4);
  });

  it('accepts an endpoint with and without its secret, and refuses unknown events', () => {
    const endpoint = { id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', url: 'https://hooks.example.com/x', events: ['job.failed'], description: null, createdAt: '2025-11-30T12:34:56.789Z' };
    expect(WebhookEndpointViewSchema.safeParse(endpoint).success).toBe(true);
    expect(WebhookEndpointViewSchema.safeParse({ ...endpoint, secret: 'whsec_abc' }).success).toBe(true);
    expect(WebhookEndpointViewSchema.safeParse({ ...endpoint, events: ['job.started'] }).success).toBe(false);
  });
});
