import {
  EventTypes,
  type EventType,
  type StepCompletedV1,
  type StepDemotedV1,
  type StepFailedV1,
  type StepProgressV1,
  type StepQueuedV1,
  type StepStartedV1,
} from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import type { EffectLedger, Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { laneOfStep } from '../create-job/lane.policy';
import { progressChanged } from '../job-feed/job-feed.policy';
import { JobFeedWriter } from '../job-feed/job-feed.writer';
import { FIRST_NOW, JobRepository, NOW, type JobState, type StepRecord } from '../job.repository';
import type { JobTransitions } from '../lifecycle/job.transitions';
import type { StepDispatcher } from '../lifecycle/step.dispatcher';
import { StepAttemptRepository } from '../lifecycle/step-attempt.repository';
import type { StepFailureHandler } from '../lifecycle/step-failure.handler';
import { isCurrentAttempt, nextStep } from './job-saga.policy';

type StepEvent = StepQueuedV1 | StepStartedV1 | StepProgressV1 | StepCompletedV1 | StepFailedV1 | StepDemotedV1;

/**
 * Per transaction, the jobs it has locked, and the state of each: read once, when the job was
 * locked ({@link JobSagaHandlers.lockJobs}, or the first event of a job it did not lock), then
 * kept up to date by the handlers themselves, whose every change of a job or step also changes
 * the record (`JobTransitions`, `JobRepository.patchStep`, `StepDispatcher`). A job's later
 * event in the same transaction starts from there: reading the job again cost a round trip per
 * event, and under load most of a transaction's events are a job's second or third.
 */
const lockedJobs = new WeakMap<Sql, { ids: Set<string>; states: Map<string, JobState> }>();

/** What the saga's handlers need. */
export interface JobSagaDeps {
  logger: Logger;
  transitions: JobTransitions;
  dispatcher: StepDispatcher;
  failures: StepFailureHandler;
  ledger: EffectLedger;
}

/**
 * The job saga: advances a job as its steps report on `job.events`, each event in the
 * transaction that records it in the api's inbox, with the job row locked. Results of a
 * superseded attempt are ignored (fencing by attempt number); the next step's request and every
 * transition's lifecycle event go to the outbox in the same transaction.
 */
export class JobSagaHandlers {
  private readonly jobs = new JobRepository();
  private readonly attempts = new StepAttemptRepository();
  private readonly feed = new JobFeedWriter();

  constructor(private readonly deps: JobSagaDeps) {}

  handlers(): Partial<Record<EventType, EventHandler>> {
    const on = <T extends StepEvent>(handle: (sql: Sql, state: JobState, step: StepRecord, event: T) => Promise<void>): EventHandler =>
      async (sql, event: InboundEvent) => {
        const payload = event.payload as T;
        const current = await this.load(sql, payload);
        if (current) await handle(sql, current.state, current.step, payload);
      };
    return {
      [EventTypes.StepQueuedV1]: on<StepQueuedV1>((sql, state, step, e) => this.onQueued(sql, state, step, e)),
      [EventTypes.StepStartedV1]: on<StepStartedV1>((sql, state, step, e) => this.onStarted(sql, state, step, e)),
      [EventTypes.StepProgressV1]: on<StepProgressV1>((sql, state, step, e) => this.onProgress(sql, state, step, e)),
      [EventTypes.StepCompletedV1]: on<StepCompletedV1>((sql, state, step, e) => this.onCompleted(sql, state, step, e)),
      [EventTypes.StepFailedV1]: on<StepFailedV1>((sql, state, step, e) => this.onFailed(sql, state, step, e)),
      [EventTypes.StepDemotedV1]: on<StepDemotedV1>((sql, state, step, e) => this.onDemoted(sql, state, step, e)),
    };
  }

  /**
   * The consumer's `beforeHandling`: locks the jobs of a transaction's events in one statement,
   * then reads them, with their steps, in one more. Each event's handler then starts from that
   * state instead of locking and reading its job in two statements of its own. The read is
   * issued behind the lock without waiting for it (Postgres runs it once the locks are held), so
   * on a pipelining connection the two share a round trip.
   */
  async lockJobs(sql: Sql, events: readonly InboundEvent[]): Promise<void> {
    const ids = [...new Set(events.map((event) => (event.payload as StepEvent).jobId.toLowerCase()))];
    const [, read] = await Promise.all([this.jobs.lockAll(sql, ids), this.jobs.readAllLocked(sql, ids)]);
    const locked = this.lockedIn(sql);
    for (const id of ids) locked.ids.add(id);
    for (const [id, state] of read) locked.states.set(id, state);
  }

  private lockedIn(sql: Sql): { ids: Set<string>; states: Map<string, JobState> } {
    let locked = lockedJobs.get(sql);
    if (!locked) lockedJobs.set(sql, (locked = { ids: new Set<string>(), states: new Map<string, JobState>() }));
    return locked;
  }

  /**
   * The job's state in this transaction (locking and reading it if the transaction has not);
   * returns it only when the event is about the step's current, open attempt.
   */
  private async load(sql: Sql, event: StepEvent): Promise<{ state: JobState; step: StepRecord } | null> {
    const id = event.jobId.toLowerCase();
    const locked = this.lockedIn(sql);
    let state = locked.states.get(id) ?? null;
    if (!state) {
      state = locked.ids.has(id) ? await this.jobs.readLocked(sql, event.jobId) : await this.jobs.lock(sql, event.jobId);
      locked.ids.add(id);
      if (state) locked.states.set(id, state);
    }
    const step = state?.steps.find((s) => s.name === event.step);
    if (!state || !step) {
      this.deps.logger.warn({ job_id: event.jobId, step: event.step }, 'event for an unknown job or step ignored');
      return null;
    }
    if (!isCurrentAttempt(step, event.attempt)) {
      this.deps.logger.info(
        { job_id: event.jobId, step: event.step, attempt: event.attempt, current: step.attempt, status: step.status },
        'event of a superseded attempt ignored',
      );
      return null;
    }
    return { state, step };
  }

  /** A worker holds the attempt: the relay delivered it. */
  private async onQueued(sql: Sql, { job }: JobState, step: StepRecord, event: StepQueuedV1): Promise<void> {
    await this.attempts.queued(sql, job.id, step.name, step.attempt, event.worker, event.queuedAt);
  }

  private async onStarted(sql: Sql, { job }: JobState, step: StepRecord, event: StepStartedV1): Promise<void> {
    if (step.status === 'running') {
      // A takeover after a lost lease runs the same attempt again: only the worker changes.
      await this.attempts.running(sql, job.id, step.name, step.attempt, event.worker);
      await this.jobs.patchStep(sql, step, { worker: event.worker, heartbeatAt: NOW });
      this.deps.logger.info({ job_id: job.id, step: step.name, attempt: step.attempt, worker: event.worker }, 'attempt taken over by another worker');
      return;
    }
    // The step is queued (load() let only open attempts through): the move is legal, and its
    // statement also marks the attempt's history row running. The job's start goes in the same one.
    await this.deps.transitions.together(sql, job, async () => {
      const moved = await this.deps.transitions.moveStep(
        sql, job, step, 'running',
        { worker: event.worker, heartbeatAt: NOW, relayedAt: FIRST_NOW },
        { attempt: { to: 'running', worker: event.worker } },
      );
      if (moved) await this.deps.transitions.moveJob(sql, job, 'running');
    });
  }

  private async onProgress(sql: Sql, { job }: JobState, step: StepRecord, event: StepProgressV1): Promise<void> {
    // Progress reports double as heartbeats: only a new fraction is news to someone watching.
    const news = event.progress !== null && progressChanged(step.progress, event.progress);
    await this.jobs.patchStep(sql, step, { heartbeatAt: NOW, progress: event.progress, worker: event.worker });
    if (news && event.progress !== null) {
      await this.feed.stepProgress(sql, job.id, { step: step.name, attempt: step.attempt, progress: event.progress });
    }
  }

  /**
   * The step's end, the job's start or end, and the next step's move and request are written by
   * one statement (`together`).
   */
  private async onCompleted(sql: Sql, state: JobState, step: StepRecord, event: StepCompletedV1): Promise<void> {
    await this.deps.transitions.together(sql, state.job, () => this.complete(sql, state, step, event));
  }

  private async complete(sql: Sql, { job, steps }: JobState, step: StepRecord, event: StepCompletedV1): Promise<void> {
    // A run that ended before its worker announced its start ends a step still `queued`: one
    // transition, queued → succeeded, whose start is the one the event carries.
    const unannounced = step.status === 'queued';
    const startedAt = unannounced && event.startedAt ? new Date(event.startedAt) : null;
    const moved = await this.deps.transitions.moveStep(
      sql, job, step, 'succeeded',
      {
        worker: event.worker, result: event.result, progress: 1,
        ...(unannounced ? { relayedAt: FIRST_NOW, startedAt: step.startedAt ?? startedAt ?? NOW } : {}),
      },
      { attempt: { to: 'succeeded', error: null, worker: event.worker, startedAt } },
    );
    if (!moved) return;
    await this.deps.ledger.record(sql, { effect: 'step.succeeded', jobId: job.id, step: step.name, attempt: step.attempt });
    if (job.status === 'pending') await this.deps.transitions.moveJob(sql, job, 'running');
    const nextName = nextStep(step.name);
    const next = nextName ? steps.find((s) => s.name === nextName) : undefined;
    if (next) {
      // A later step runs in its lane for the job's lane now (a demoted job stays slow).
      if (await this.deps.transitions.moveStep(sql, job, next, 'queued', { attempt: next.attempt + 1, lane: laneOfStep(next.name, job.lane) })) {
        await this.deps.dispatcher.dispatch(sql, job, steps, next);
      }
      return;
    }
    const results: Record<string, unknown> = {};
    for (const s of steps) if (s.result) results[s.name] = s.result;
    await this.deps.transitions.moveJob(sql, job, 'completed', { result: results });
  }

  private async onFailed(sql: Sql, { job, steps }: JobState, step: StepRecord, event: StepFailedV1): Promise<void> {
    await this.deps.failures.handle(sql, job, steps, step, event.error, 'failed', event.worker);
  }

  /**
   * A fast-lane attempt passed its budget: the step moves to the slow lane under a new attempt
   * number, without counting a failure, and the job stays slow from here on.
   */
  private async onDemoted(sql: Sql, { job, steps }: JobState, step: StepRecord, event: StepDemotedV1): Promise<void> {
    if (step.lane === 'slow' || laneOfStep(step.name, 'slow') !== 'slow') {
      this.deps.logger.warn({ job_id: job.id, step: step.name, attempt: step.attempt }, 'demotion of a step without a slow lane ignored');
      return;
    }
    await this.attempts.finished(sql, job.id, step.name, step.attempt, 'demoted', null, event.worker);
    const moved = await this.deps.transitions.moveStep(
      sql, job, step, 'queued',
      { attempt: step.attempt + 1, lane: 'slow', worker: null, heartbeatAt: null, progress: null },
      { reason: 'demoted' },
    );
    if (!moved) return;
    await this.jobs.setLane(sql, job.id, 'slow');
    job.lane = 'slow';
    await this.deps.dispatcher.dispatch(sql, job, steps, step);
  }
}
