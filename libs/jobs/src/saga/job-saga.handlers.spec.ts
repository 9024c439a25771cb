import { EventTypes, type EventType } from '@longhaul/contracts';
import type { InboundEvent } from '@longhaul/messaging';
import type { EffectLedger, Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import type { JobTransitions } from '../lifecycle/job.transitions';
import type { StepDispatcher } from '../lifecycle/step.dispatcher';
import type { StepFailureHandler } from '../lifecycle/step-failure.handler';
import { JobSagaHandlers } from './job-saga.handlers';

const JOB = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;

/** A job row and its steps as Postgres' json_agg gives them. */
function jobRow(transcode: 'queued' | 'running') {
  const step = (name: string, position: number, status: string, attempt: number) => ({
    job_id: JOB, name, position, status, attempt, lane: 'fast', failures: 0, max_attempts: 5, worker: null, queued_at: null, started_at: null,
    finished_at: null, dispatched_at: null, relayed_at: null, due_at: null, heartbeat_at: null, progress: null, dead_letter_id: null,
    result: null, error: null, updated_at: '2026-12-01T12:00:00.000Z',
  });
  return {
    id: JOB, tenant_id: 't', type: 'video.process', status: 'pending', lane: 'fast', source: {}, outputs: {}, metadata: null, result: null,
    error: null, version: 1, traceparent: null, retry_policy: { maxAttempts: 5, baseMs: 1, capMs: 1 }, source_key: null, media: null, notify: null,
    created_at: new Date(), updated_at: new Date(), started_at: null, finished_at: null,
    steps: [step('transcode', 0, transcode, 1), step('thumbnail', 1, 'pending', 0)],
  };
}

/** Answers the saga's reads, and counts them. */
function database(): { sql: Sql; statements: string[] } {
  const statements: string[] = [];
  const sql: Sql = {
    async rows<T>(text: string): Promise<T[]> {
      const kind = text.includes('FOR UPDATE') ? 'lock' : 'read';
      statements.push(kind);
      // A read after the first event sees the step that event moved.
      const row = jobRow(statements.filter((s) => s === 'read').length > 1 ? 'running' : 'queued');
      if (text.includes('FROM api.job_steps WHERE job_id')) return row.steps.map((step) => ({ ...step, updated_at: new Date(step.updated_at) })) as T[];
      if (text.startsWith('SELECT id FROM')) return [{ id: JOB }] as T[];
      return [row] as T[];
    },
    async execute(): Promise<number> {
      return 1;
    },
  };
  return { sql, statements };
}

function event(type: EventType, payload: Record<string, unknown>): InboundEvent {
  return { id: `${type}-1`, type, key: JOB, topic: 'job.events', partition: 0, offset: '1', traceparent: null, payload } as InboundEvent;
}

describe('JobSagaHandlers', () => {
  const moves: string[] = [];
  const transitions = {
    moveStep: async (_sql: Sql, _job: unknown, step: { name: string; status: string }, to: string) => {
      moves.push(`${step.name} ${step.status}→${to}`);
      step.status = to;
      return true;
    },
    moveJob: async () => true,
    together: async (_sql: Sql, _job: unknown, work: () => Promise<unknown>) => work(),
  } as unknown as JobTransitions;
  const deps = {
    logger: silent,
    transitions,
    dispatcher: { dispatch: async () => undefined } as unknown as StepDispatcher,
    failures: {} as StepFailureHandler,
    ledger: { record: async () => undefined } as unknown as EffectLedger,
  };

  beforeEach(() => moves.splice(0));

  it("starts a job's first event from the state lockJobs read, and its next one in the transaction from the state the first left", async () => {
    const saga = new JobSagaHandlers(deps);
    const handlers = saga.handlers();
    const { sql, statements } = database();
    const started = event(EventTypes.StepStartedV1, { jobId: JOB, step: 'transcode', attempt: 1, worker: 'w1', startedAt: '2026-12-01T12:00:00.000Z' });
    const completed = event(EventTypes.StepCompletedV1, { jobId: JOB, step: 'transcode', attempt: 1, worker: 'w1', result: {}, completedAt: '2026-12-01T12:00:01.000Z' });
    await saga.lockJobs(sql, [started, completed]);
    expect(statements).toEqual(['lock', 'read']);
    await handlers[EventTypes.StepStartedV1]!(sql, started);
    expect(statements).toEqual(['lock', 'read']);
    await handlers[EventTypes.StepCompletedV1]!(sql, completed);
    expect(statements).toEqual(['lock', 'read']);
    expect(moves).toEqual(['transcode queued→running', 'transcode running→succeeded', 'thumbnail pending→queued']);
  });

  it('ends a step still queued at once when its result comes before any start: the worker announced none', async () => {
    const patches: Array<Record<string, unknown>> = [];
    const saga = new JobSagaHandlers({
      ...deps,
      transitions: {
        ...transitions,
        moveStep: async (sql: Sql, job: unknown, step: { name: string; status: string }, to: string, patch: Record<string, unknown>) => {
          patches.push(patch ?? {});
          return transitions.moveStep(sql, job as never, step as never, to as never);
        },
      } as unknown as JobTransitions,
    });
    const { sql } = database();
    const completed = event(EventTypes.StepCompletedV1, {
      jobId: JOB, step: 'transcode', attempt: 1, worker: 'w1', result: {}, completedAt: '2026-12-01T12:00:01.000Z', startedAt: '2026-12-01T12:00:00.500Z',
    });
    await saga.lockJobs(sql, [completed]);
    await saga.handlers()[EventTypes.StepCompletedV1]!(sql, completed);
    expect(moves).toEqual(['transcode queued→succeeded', 'thumbnail pending→queued']);
    expect(patches[0]).toMatchObject({ worker: 'w1', startedAt: new Date('2026-12-01T12:00:00.500Z') });
  });

  it('locks and reads a job itself when no batch hook ran', async () => {
    const handlers = new JobSagaHandlers(deps).handlers();
    const { sql, statements } = database();
    const started = event(EventTypes.StepStartedV1, { jobId: JOB, step: 'transcode', attempt: 1, worker: 'w1', startedAt: '2026-12-01T12:00:00.000Z' });
    await handlers[EventTypes.StepStartedV1]!(sql, started);
    expect(statements).toEqual(['lock', 'read']);
    expect(moves).toEqual(['transcode queued→running']);
  });
});
