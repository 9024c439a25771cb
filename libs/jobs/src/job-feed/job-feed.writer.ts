import type {
  JobStatus,
  JobStatusFeedEventV1,
  SerializedError,
  StepProgressFeedEventV1,
  StepStatusFeedEventV1,
  StepTransitionedV1,
} from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { JobFeedRepository } from './job-feed.repository';

type Unnumbered<T> = Omit<T, 'seq'>;

/**
 * Entry 1 of a new job's feed: the status it was accepted in. Submit writes it in the statement
 * that inserts the job (the job row starts at `feed_seq = 1`), so it needs no row lock or
 * `feed_seq` update of its own.
 */
export function acceptedFeedEntry(jobId: string, at: Date): JobStatusFeedEventV1 {
  return { kind: 'job.status', jobId, seq: 1, at: at.toISOString(), status: 'pending', result: null, error: null };
}

/** The feed's copy of a job status change (numbered when written). */
export function jobStatusFeedEntry(
  jobId: string,
  change: { status: JobStatus; result?: Record<string, unknown> | null; error?: SerializedError | null },
): Unnumbered<JobStatusFeedEventV1> {
  return {
    kind: 'job.status',
    jobId,
    at: new Date().toISOString(),
    status: change.status,
    result: change.result ?? null,
    error: change.error ?? null,
  };
}

/** The feed's copy of a step transition, as announced on `job.lifecycle` (numbered when written). */
export function stepStatusFeedEntry(transition: Omit<StepTransitionedV1, 'version' | 'previousVersion'>): Unnumbered<StepStatusFeedEventV1> {
  return {
    kind: 'step.status',
    jobId: transition.jobId,
    at: transition.occurredAt,
    step: transition.step,
    from: transition.from,
    to: transition.to,
    attempt: transition.attempt,
    lane: transition.lane,
    reason: transition.reason,
    retryAt: transition.retryAt,
    error: transition.error,
  };
}

/**
 * Writes a job's feed (`GET /v1/jobs/{id}/events`) on the caller's transaction, which has the job
 * row locked: the entry exists exactly when the change it reports does, and listening api
 * instances hear of it at commit. Returns the entry's position.
 */
export class JobFeedWriter {
  private readonly feed = new JobFeedRepository();

  stepProgress(sql: Sql, jobId: string, report: Pick<StepProgressFeedEventV1, 'step' | 'attempt' | 'progress'>): Promise<number> {
    const event: Unnumbered<StepProgressFeedEventV1> = {
      kind: 'step.progress',
      jobId,
      at: new Date().toISOString(),
      step: report.step,
      attempt: report.attempt,
      progress: report.progress,
    };
    return this.feed.append(sql, jobId, event.kind, event);
  }
}
