import { z } from 'zod';

/** Renditions of the adaptive ladder a client may ask for. */
export const Renditions = ['1080p', '720p', '480p', '360p'] as const;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
  .max(2048, 'must be at most 2048 characters');

/** Where the input video comes from: an earlier upload, or a URL the api downloads (and probes) at submit. */
export const JobSourceSchema = z.union([
  z.strictObject({ url: httpUrl }),
  z.strictObject({ uploadId: z.string().min(1).max(64) }),
]);

/** What to produce. Every field has a default, so `{}` asks for the standard outputs. */
export const JobOutputsSchema = z.strictObject({
  /** @defaultValue every rendition of the ladder */
  renditions: z.array(z.enum(Renditions)).min(1).max(Renditions.length).optional(),
  /** @defaultValue true */
  hls: z.boolean().optional(),
  /** @defaultValue { count: 5 } */
  thumbnails: z.strictObject({ count: z.int().min(1).max(100) }).optional(),
});

/**
 * Who hears about the job's end besides registered webhook endpoints. `webhookUrl` is checked
 * further by the api (https, at most 2 KiB, a public host; 400 `webhook_url_forbidden`).
 */
export const JobNotifySchema = z.strictObject({
  webhookUrl: z.string().min(1, 'must not be empty').optional(),
  email: z.email('must be an email address').max(254).optional(),
});

/**
 * `POST /v1/jobs` body, version 1. Unknown fields are refused so that a typo never silently
 * becomes a default.
 */
export const CreateJobRequestSchema = z.strictObject({
  type: z.literal('video.process'),
  source: JobSourceSchema,
  outputs: JobOutputsSchema.default({}),
  /** Free-form client data echoed back on the job, at most 16 keys. */
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((m) => Object.keys(m).length <= 16, 'must have at most 16 keys')
    .optional(),
  notify: JobNotifySchema.optional(),
});

export type CreateJobRequest = z.infer<typeof CreateJobRequestSchema>;
export type JobSource = z.infer<typeof JobSourceSchema>;
export type JobOutputs = z.infer<typeof JobOutputsSchema>;
export type JobNotify = z.infer<typeof JobNotifySchema>;

/** The longest `Idempotency-Key` accepted. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
