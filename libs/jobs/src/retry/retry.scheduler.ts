import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { JobRepository } from '../job.repository';
import type { StepDispatcher } from '../lifecycle/step.dispatcher';

/**
 * Sends scheduled retries when they fall due. Any number of api instances may run it: each due
 * job is taken under its row lock with `SKIP LOCKED`, and a step is dispatched only while it is
 * still queued and undispatched, so a retry is sent once.
 */
export class RetryScheduler {
  private readonly jobs = new JobRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatcher: StepDispatcher,
    private readonly logger: Logger,
    private readonly batchSize = 100,
  ) {}

  /** One pass; returns true when the batch was full (more may be due). */
  async dispatchDue(): Promise<boolean> {
    const due = await withConnection(this.dataSource, (sql) =>
      sql.rows<{ job_id: string; name: string }>(
        `SELECT job_id, name FROM api.job_steps
          WHERE status = 'queued' AND dispatched_at IS NULL AND due_at <= now()
          ORDER BY due_at LIMIT $1`,
        [this.batchSize],
      ),
    );
    for (const { job_id: jobId, name } of due) {
      await inTransaction(this.dataSource, async (sql) => {
        const state = await this.jobs.lock(sql, jobId, { skipLocked: true });
        const step = state?.steps.find((s) => s.name === name);
        if (!state || !step || step.status !== 'queued' || step.dispatchedAt !== null) return;
        await this.dispatcher.dispatch(sql, state.job, state.steps, step, { ownTrace: true });
        this.logger.info({ job_id: jobId, step: name, attempt: step.attempt, lane: step.lane }, 'retry dispatched');
      });
    }
    return due.length === this.batchSize;
  }
}
