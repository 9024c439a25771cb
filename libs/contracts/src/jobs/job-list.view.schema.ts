import { z } from 'zod';
import { JobStatuses } from './job-status';
import { IsoDateTimeSchema, TraceIdSchema } from './job.view.schema';

/** `JobSummaryView` as a schema (kept equal to the interface by `job-list.view.schema.spec.ts`). */
export const JobSummaryViewSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  status: z.enum(JobStatuses),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  traceId: TraceIdSchema.nullable(),
  progress: z.number().min(0).max(1).nullable(),
});

/** `JobListView` as a schema: `GET /v1/jobs`. */
export const JobListViewSchema = z.object({
  items: z.array(JobSummaryViewSchema),
  nextCursor: z.string().nullable(),
});
