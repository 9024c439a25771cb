import { ErrorCodes, type SerializedError } from '@longhaul/contracts';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { JobRepository, type StepRecord } from '../job.repository';
import type { StepFailureHandler } from '../lifecycle/step-failure.handler';

/** How long each open state may stay silent before the watchdog steps in. All in ms. */
export interface WatchdogLimits {
  /** Dispatched, but no worker confirmed the request (lost on the way). */
  unrelayedMs: number;
  /** Confirmed by a worker, but never started. */
  queuedMs: number;
  /** Running, but no heartbeat (`StepStarted`/`StepProgress`) arrived. */
  silentMs: number;
}

const STUCK = `
  (s.status = 'queued' AND s.dispatched_at IS NOT NULL AND s.relayed_at IS NULL
     AND s.dispatched_at < now() - make_interval(secs => $1::double precision / 1000))
  OR (s.status = 'queued' AND s.relayed_at IS NOT NULL
     AND s.relayed_at < now() - make_interval(secs => $2::double precision / 1000))
  OR (s.status = 'running'
     AND coalesce(s.heartbeat_at, s.started_at, s.updated_at) < now() - make_interval(secs => $3::double precision / 1000))`;

/**
 * Defence against what should not happen: a request or result lost on the way, a worker gone
 * without a trace. A step silent past its limit is declared lost — a retryable failure, so it
 * is re-dispatched under a new attempt number (fencing the old one), or dead-lettered once
 * its attempts are used up.
 */
export class JobWatchdog {
  private readonly jobs = new JobRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly failures: StepFailureHandler,
    private readonly limits: WatchdogLimits,
    private readonly logger: Logger,
    private readonly batchSize = 100,
  ) {}

  async sweep(): Promise<boolean> {
    const params = [this.limits.unrelayedMs, this.limits.queuedMs, this.limits.silentMs];
    const stuck = await withConnection(this.dataSource, (sql) =>
      sql.rows<{ job_id: string; name: string }>(
        `SELECT s.job_id, s.name FROM api.job_steps s WHERE s.status IN ('queued', 'running') AND (${STUCK}) LIMIT $4`,
        [...params, this.batchSize],
      ),
    );
    for (const { job_id: jobId, name } of stuck) {
      await inTransaction(this.dataSource, async (sql) => {
        const state = await this.jobs.lock(sql, jobId, { skipLocked: true });
        if (!state) return;
        // Re-check under the lock: the step may have moved since the scan.
        const [still] = await sql.rows(`SELECT 1 FROM api.job_steps s WHERE s.job_id = $4 AND s.name = $5 AND (${STUCK})`, [...params, jobId, name]);
        const step = state.steps.find((s) => s.name === name);
        if (!still || !step) return;
        const error = this.lostError(step);
        this.logger.warn({ job_id: jobId, step: name, attempt: step.attempt, status: step.status, reason: error.message }, 'step declared lost by the watchdog');
        await this.failures.handle(sql, state.job, state.steps, step, error, 'lost');
      });
    }
    return stuck.length === this.batchSize;
  }

  private lostError(step: StepRecord): SerializedError {
    const message =
      step.status === 'running'
        ? `no heartbeat from ${step.worker ?? 'the worker'} for over ${this.limits.silentMs} ms`
        : step.relayedAt
          ? `queued at a worker but not started within ${this.limits.queuedMs} ms`
          : `no worker confirmed the request within ${this.limits.unrelayedMs} ms`;
    return { code: ErrorCodes.stepLost, message, retryable: true };
  }
}
