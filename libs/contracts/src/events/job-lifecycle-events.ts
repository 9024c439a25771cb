import { z } from 'zod';
import { JobStatuses } from '../jobs/job-status';

/**
 * Every change of a job's status, published on `job.lifecycle`. `version` counts the job's
 * transitions (1, 2, 3…), so a reader can tell order and spot a gap without trusting arrival.
 */
export const JobLifecycleV1Schema = z.object({
  jobId: z.uuid(),
  jobType: z.string(),
  status: z.enum(JobStatuses),
  version: z.int().min(1),
  result: z.record(z.string(), z.unknown()).nullable().default(null),
  error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }).nullable().default(null),
  occurredAt: z.iso.datetime({ offset: true }),
});
export type JobLifecycleV1 = z.infer<typeof JobLifecycleV1Schema>;
