import {
  EventTypes,
  JOB_AGGREGATE,
  Topics,
  type JobLifecycleV1,
  type JobStatus,
  type SerializedError,
} from '@longhaul/contracts';
import type { OutboxEvent } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import type { JobRecord } from '../job.repository';
import { resolveNotifyTargets } from '../notifications/notify-targets.resolver';

const TYPE_BY_STATUS: Partial<Record<JobStatus, string>> = {
  running: EventTypes.JobStartedV1,
  completed: EventTypes.JobCompletedV1,
  failed: EventTypes.JobFailedV1,
  cancelled: EventTypes.JobCancelledV1,
};

/**
 * The `job.lifecycle` event that announces a job's new status, or null for a status that has
 * none; a terminal status carries who is to be notified (read in the transaction that sets it).
 * Its `version` and `previousVersion` are 0 here: the writer fills them in (`JobTransitionWriter`).
 */
export async function jobStatusEvent(
  sql: Sql,
  job: JobRecord,
  status: JobStatus,
  extra: { result?: Record<string, unknown>; error?: SerializedError; reopened?: boolean } = {},
): Promise<OutboxEvent | null> {
  const type = extra.reopened ? EventTypes.JobReopenedV1 : TYPE_BY_STATUS[status];
  if (!type) return null;
  const payload: JobLifecycleV1 = {
    jobId: job.id,
    jobType: job.type,
    status,
    version: 0,
    previousVersion: 0,
    result: extra.result ?? null,
    error: extra.error ?? null,
    occurredAt: new Date().toISOString(),
    // A reopened job has not ended: nobody is notified of that.
    notify: extra.reopened ? null : await resolveNotifyTargets(sql, job, status),
  };
  return { topic: Topics.jobLifecycle, type, aggregateType: JOB_AGGREGATE, aggregateId: job.id, payload };
}
