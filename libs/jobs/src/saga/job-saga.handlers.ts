import {
  EventTypes,
  JOB_AGGREGATE,
  type StepCompletedV1,
  type StepFailedV1,
  type StepRequestedV1,
  type StepName,
  type StepStartedV1,
} from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import { appendToOutbox } from '@longhaul/outbox';
import { stepRequestRoute } from '../create-job/lane.policy';
import type { Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import { JobRepository, type JobRecord, type StepRecord } from '../job.repository';
import { publishJobStatus } from './job-lifecycle.publisher';
import { canMoveJob, canMoveStep, isCurrentAttempt, nextStep } from './job-saga.policy';

/**
 * The job saga: advances a job as its steps report (`job.events`), each event in the transaction
 * that records it in the api's inbox, with the job row locked. Results of a superseded attempt
 * are ignored (fencing); the next step's request and the job's lifecycle events are written to
 * the outbox in the same transaction.
 */
export class JobSagaHandlers {
  private readonly jobs = new JobRepository();

  constructor(private readonly logger: Logger) {}

  handlers(): Record<string, EventHandler> {
    return {
      [EventTypes.StepStartedV1]: (sql, e) => this.onStarted(sql, e as InboundEvent<typeof EventTypes.StepStartedV1>),
      [EventTypes.StepCompletedV1]: (sql, e) => this.onCompleted(sql, e as InboundEvent<typeof EventTypes.StepCompletedV1>),
      [EventTypes.StepFailedV1]: (sql, e) => this.onFailed(sql, e as InboundEvent<typeof EventTypes.StepFailedV1>),
    };
  }

  private async load(sql: Sql, event: StepStartedV1 | StepCompletedV1 | StepFailedV1) {
    const state = await this.jobs.lock(sql, event.jobId);
    const step = state?.steps.find((s) => s.name === event.step);
    if (!state || !step) {
      this.logger.warn({ job_id: event.jobId, step: event.step }, 'event for an unknown job or step ignored');
      return null;
    }
    if (!isCurrentAttempt(step, event.attempt)) {
      this.logger.info({ job_id: event.jobId, step: event.step, attempt: event.attempt, current: step.attempt, status: step.status },
        'event of a superseded attempt ignored');
      return null;
    }
    return { job: state.job, steps: state.steps, step };
  }

  /** Refuses (and logs) a step transition the lifecycle does not allow. */
  private stepMayMove(step: StepRecord, to: StepRecord['status']): boolean {
    if (step.status === to || canMoveStep(step.status, to)) return true;
    this.logger.warn({ job_id: step.jobId, step: step.name, from: step.status, to }, 'illegal step transition refused');
    return false;
  }

  private async onStarted(sql: Sql, event: InboundEvent<typeof EventTypes.StepStartedV1>): Promise<void> {
    const state = await this.load(sql, event.payload);
    if (!state || !this.stepMayMove(state.step, 'running')) return;
    // A takeover after a lost lease starts the same attempt again: only the worker changes.
    await this.jobs.updateStep(sql, state.job.id, state.step.name, { status: 'running', worker: event.payload.worker });
    await this.moveJob(sql, state.job, 'running');
  }

  private async onCompleted(sql: Sql, event: InboundEvent<typeof EventTypes.StepCompletedV1>): Promise<void> {
    const state = await this.load(sql, event.payload);
    if (!state) return;
    const { job, steps, step } = state;
    if (!this.stepMayMove(step, 'succeeded')) return;
    await this.jobs.updateStep(sql, job.id, step.name, { status: 'succeeded', worker: event.payload.worker, result: event.payload.result });
    const next = nextStep(step.name);
    if (next) {
      await this.jobs.updateStep(sql, job.id, next, { status: 'queued', attempt: 1 });
      await this.requestStep(sql, job, next, collectResults(steps, step.name, event.payload.result));
      await this.moveJob(sql, job, 'running');
      return;
    }
    await this.moveJob(sql, job, 'completed', { result: collectResults(steps, step.name, event.payload.result) });
  }

  private async onFailed(sql: Sql, event: InboundEvent<typeof EventTypes.StepFailedV1>): Promise<void> {
    const state = await this.load(sql, event.payload);
    if (!state || !this.stepMayMove(state.step, 'failed')) return;
    await this.jobs.updateStep(sql, state.job.id, state.step.name, { status: 'failed', worker: event.payload.worker, error: event.payload.error });
    await this.moveJob(sql, state.job, 'failed', { error: event.payload.error });
  }

  private async moveJob(sql: Sql, job: JobRecord, to: JobRecord['status'], extra: Parameters<JobRepository['setStatus']>[3] = {}): Promise<void> {
    if (job.status === to) return;
    if (!canMoveJob(job.status, to)) {
      this.logger.warn({ job_id: job.id, from: job.status, to }, 'illegal job transition refused');
      return;
    }
    const version = await this.jobs.setStatus(sql, job.id, to, extra);
    await publishJobStatus(sql, job, to, version, extra);
    this.logger.info({ job_id: job.id, from: job.status, to, version }, 'job status changed');
    job.status = to;
  }

  private async requestStep(sql: Sql, job: JobRecord, step: StepName, inputs: Record<string, unknown>): Promise<void> {
    const payload: StepRequestedV1 = {
      jobId: job.id,
      step,
      attempt: 1,
      jobType: job.type,
      lane: job.lane,
      source: job.source as StepRequestedV1['source'],
      outputs: job.outputs as StepRequestedV1['outputs'],
      inputs,
      requestedAt: new Date().toISOString(),
    };
    const route = stepRequestRoute(step, job.lane);
    await appendToOutbox(sql, API_SCHEMA, {
      topic: route.topic,
      type: route.type,
      aggregateType: JOB_AGGREGATE,
      aggregateId: job.id,
      payload,
    });
  }
}

/** Results of every finished step, by step name, including the one just finished. */
function collectResults(steps: StepRecord[], finished: string, result: Record<string, unknown>): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  for (const s of steps) if (s.result) results[s.name] = s.result;
  results[finished] = result;
  return results;
}
