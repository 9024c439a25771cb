import {
  EventTypes,
  JOB_AGGREGATE,
  Topics,
  type JobLifecycleV1,
  type JobStatus,
  type SerializedError,
} from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { API_SCHEMA } from '../api.migrations';
import type { JobRecord } from '../job.repository';
import { resolveNotifyTargets } from '../notifications/notify-targets.resolver';

const TYPE_BY_STATUS: Partial<Record<JobStatus, string>> = {
  running: EventTypes.JobStartedV1,
  completed: EventTypes.JobCompletedV1,
  failed: EventTypes.JobFailedV1,
  cancelled: EventTypes.JobCancelledV1,
};

/**
 * Announces a job's new status on `job.lifecycle`, in the transaction that set it; a terminal
 * status carries who is to be notified.
 */
export async function publishJobStatus(
  sql: Sql,
  job: JobRecord,
  status: JobStatus,
  version: number,
  extra: { result?: Record<string, unknown>; error?: SerializedError; reopened?: boolean } = {},
): Promise<void> {
  const type = extra.reopened ? EventTypes.JobReopenedV1 : TYPE_BY_STATUS[status];
  if (!type) return;
  const payload: JobLifecycleV1 = {
    jobId: job.id,
    jobType: job.type,
    status,
    version,
    result: extra.result ?? null,
    error: extra.error ?? null,
    occurredAt: new Date().toISOString(),
    // A reopened job has not ended: nobody is notified of that.
    notify: extra.reopened ? null : await resolveNotifyTargets(sql, job, status),
  };
  await appendToOutbox(sql, API_SCHEMA, { topic: Topics.jobLifecycle, type, aggregateType: JOB_AGGREGATE, aggregateId: job.id, payload });
}
