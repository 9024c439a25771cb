import { EventTypes, JOB_AGGREGATE, Topics, type JobLifecycleV1, type JobStatus, type SerializedError } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { API_SCHEMA } from '../api.migrations';
import type { JobRecord } from '../job.repository';

const TYPE_BY_STATUS: Partial<Record<JobStatus, string>> = {
  running: EventTypes.JobStartedV1,
  completed: EventTypes.JobCompletedV1,
  failed: EventTypes.JobFailedV1,
};

/** Announces a job's new status on `job.lifecycle`, in the transaction that set it. */
export async function publishJobStatus(
  sql: Sql,
  job: JobRecord,
  status: JobStatus,
  version: number,
  extra: { result?: Record<string, unknown>; error?: SerializedError } = {},
): Promise<void> {
  const type = TYPE_BY_STATUS[status];
  if (!type) return;
  const payload: JobLifecycleV1 = {
    jobId: job.id,
    jobType: job.type,
    status,
    version,
    result: extra.result ?? null,
    error: extra.error ?? null,
    occurredAt: new Date().toISOString(),
  };
  await appendToOutbox(sql, API_SCHEMA, {
    topic: Topics.jobLifecycle,
    type,
    aggregateType: JOB_AGGREGATE,
    aggregateId: job.id,
    payload,
  });
}
