import type { CancelJobV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import type { Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import type { WorkQueueRepository } from '@longhaul/work-queue';
import type { CancelledJobsRepository } from './cancelled-jobs.repository';

/**
 * Handles `CancelJob.v1` in the inbox's transaction: remembers the job as cancelled (so a
 * request still on its way is dropped) and cancels its open work items. A queued item is never
 * claimed; a running one's runner finds its next heartbeat refused and kills the step. Nothing
 * is published: the api settled the job's steps when it cancelled it.
 */
export function createCancelJobHandler(queue: WorkQueueRepository, cancelledJobs: CancelledJobsRepository, logger: Logger): EventHandler {
  const log = logger.child({ component: 'job-control' });
  return async (sql: Sql, event: InboundEvent) => {
    const { jobId } = event.payload as CancelJobV1;
    await cancelledJobs.lock(sql, jobId);
    await cancelledJobs.add(sql, jobId);
    const cancelled = await queue.cancelJob(sql, jobId);
    log.info({ job_id: jobId, work_items: cancelled }, 'job cancelled');
  };
}
