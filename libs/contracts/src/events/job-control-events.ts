import { z } from 'zod';

/**
 * The api cancelled a job: workers drop its queued attempts and stop a running one (killing
 * its child process). Published on `job.control`, keyed by job id.
 */
export const CancelJobV1Schema = z.object({
  jobId: z.uuid(),
  requestedAt: z.iso.datetime({ offset: true }),
});
export type CancelJobV1 = z.infer<typeof CancelJobV1Schema>;
