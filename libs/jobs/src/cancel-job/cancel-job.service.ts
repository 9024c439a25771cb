import { EventTypes, JOB_AGGREGATE, Topics, type CancelJobV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import { inTransaction, type DataSource } from '@longhaul/persistence';
import { API_SCHEMA } from '../api.migrations';
import { JobFinishedError, JobNotFoundError } from '../job.errors';
import { JobRepository } from '../job.repository';
import type { JobTransitions } from '../lifecycle/job.transitions';
import { StepAttemptRepository } from '../lifecycle/step-attempt.repository';
import { isOpenStep } from '../saga/job-saga.policy';

/**
 * Cancels a job: in one transaction every unfinished step and the job become `cancelled`, and
 * `CancelJob.v1` goes to `job.control`, on which workers drop queued attempts and kill a running
 * one. A result that still arrives is fenced (the step is no longer open). Cancelling a
 * cancelled job changes nothing; a completed or failed one cannot be cancelled.
 */
export class CancelJobService {
  private readonly jobs = new JobRepository();
  private readonly attempts = new StepAttemptRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly transitions: JobTransitions,
  ) {}

  /** Returns whether this call cancelled the job (false: it was cancelled before). */
  async cancel(jobId: string, tenantId: string): Promise<boolean> {
    return inTransaction(this.dataSource, async (sql) => {
      const state = await this.jobs.lock(sql, jobId);
      if (!state || state.job.tenantId !== tenantId) throw new JobNotFoundError(jobId);
      const { job, steps } = state;
      if (job.status === 'cancelled') return false;
      if (job.status === 'completed' || job.status === 'failed') throw new JobFinishedError(jobId, job.status);
      for (const step of steps) {
        if (isOpenStep(step.status)) {
          await this.attempts.finished(sql, job.id, step.name, step.attempt, 'cancelled', null);
          await this.transitions.moveStep(sql, job, step, 'cancelled', { dueAt: null }, { reason: 'cancelled' });
        } else if (step.status === 'pending') {
          await this.transitions.moveStep(sql, job, step, 'cancelled', {}, { reason: 'cancelled' });
        }
      }
      await this.transitions.moveJob(sql, job, 'cancelled', { reason: 'cancelled' });
      const command: CancelJobV1 = { jobId, requestedAt: new Date().toISOString() };
      await appendToOutbox(sql, API_SCHEMA, {
        topic: Topics.jobControl,
        type: EventTypes.CancelJobV1,
        aggregateType: JOB_AGGREGATE,
        aggregateId: jobId,
        payload: command,
      });
      return true;
    });
  }
}
