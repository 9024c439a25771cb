import { z } from 'zod';

/**
 * Who hears about a job's end, fixed by the api at the moment the job ends: the webhook URL the
 * job named, every registered endpoint subscribed to that event, and the job's email address.
 * Resolved there (not by the notifier later) so an endpoint registered or removed while the event
 * is in flight cannot change who gets it, and so the notifier needs no copy of the api's tables.
 * Carried on the terminal `job.lifecycle` events.
 */
export const NotifyTargetsSchema = z.object({
  webhooks: z.array(z.object({ url: z.string(), endpointId: z.uuid().nullable() })).default([]),
  email: z.string().nullable().default(null),
});
export type NotifyTargets = z.infer<typeof NotifyTargetsSchema>;
