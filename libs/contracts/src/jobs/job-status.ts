/** Where a job stands. Terminal: `completed`, `failed`, `cancelled`. */
export const JobStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JobStatuses)[number];

/**
 * Where one step of a job stands: `pending` (waits for the steps before it), `queued` (requested,
 * not yet taken by a worker), `running`, then terminal `succeeded`, `failed`, `cancelled` or `dead`.
 */
export const StepStatuses = ['pending', 'queued', 'running', 'succeeded', 'failed', 'cancelled', 'dead'] as const;
export type StepStatus = (typeof StepStatuses)[number];

/** The steps of a `video.process` job, in the order the saga runs them. */
export const StepNames = ['transcode', 'thumbnail'] as const;
export type StepName = (typeof StepNames)[number];

/** Processing lanes: short work never waits behind long work. */
export const Lanes = ['fast', 'slow'] as const;
export type Lane = (typeof Lanes)[number];

export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
