import { context, trace, type Span } from '@opentelemetry/api';
import { JOB_AGGREGATE, type Lane, type StepName, type StepRequestedV1 } from '@longhaul/contracts';
import { OUTBOX_COLUMNS, outboxRow } from '@longhaul/outbox';
import { settleAtCommit, type Sql } from '@longhaul/persistence';
import { contextFromTraceparent, currentTraceparent, SpanAttributes, SpanNames } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import { stepRequestRoute } from '../create-job/lane.policy';
import { applyStepPatch, NOW, stepPatchSets, type JobRecord, type StepPatch, type StepRecord } from '../job.repository';
import type { StepTransitionWrite } from './job-transition.writer';
import { dispatchedAttemptSql } from './step-attempt.repository';
import { heldTransitions } from './transition.batch';

/** Results of every succeeded step before `step`, by step name: what `step` reads. */
export function inputsFor(steps: StepRecord[], step: StepName): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const s of steps) {
    if (s.name === step) break;
    if (s.result) inputs[s.name] = s.result;
  }
  return inputs;
}

/** The request of one attempt of `step`, as workers receive it. */
export function buildStepRequest(
  job: Pick<JobRecord, 'id' | 'type' | 'source' | 'outputs' | 'metadata'>,
  step: StepName, attempt: number, lane: Lane, inputs: Record<string, unknown>): StepRequestedV1 {
  return {
    jobId: job.id,
    step,
    attempt,
    jobType: job.type,
    lane,
    source: job.source as StepRequestedV1['source'],
    outputs: job.outputs as StepRequestedV1['outputs'],
    inputs,
    metadata: job.metadata,
    requestedAt: new Date().toISOString(),
  };
}

/**
 * Sends the step's current attempt to its lane's topic (through the outbox) and records it in the
 * attempt history. The step must already be `queued` with its attempt number and lane set.
 * Requests outside a request context (scheduler, watchdog, replay) carry the job's own trace,
 * so every attempt of a job stays in one trace.
 */
export class StepDispatcher {
  private readonly tracer = trace.getTracer('longhaul.jobs');

  async dispatch(sql: Sql, job: JobRecord, steps: StepRecord[], step: StepRecord, options: { ownTrace?: boolean } = {}): Promise<void> {
    const request = buildStepRequest(job, step.name, step.attempt, step.lane, inputsFor(steps, step.name));
    const span = options.ownTrace ? this.startDispatchSpan(job, step) : null;
    const traceparent = span ? context.with(trace.setSpan(context.active(), span), () => currentTraceparent()) ?? job.traceparent : undefined;
    span?.end();
    const outbox = outboxRow({
      ...stepRequestRoute(step.name, step.lane),
      aggregateType: JOB_AGGREGATE,
      aggregateId: job.id,
      payload: request,
      ...(span ? { traceparent } : {}),
    });
    // The step's dispatch stamp: its relay, due and heartbeat times and last worker cleared for the new attempt.
    const stamp: Partial<StepPatch> = { dispatchedAt: NOW, relayedAt: null, dueAt: null, heartbeatAt: null, progress: null, worker: null };
    // The move that queued the step is held to be written later (`JobTransitions.together`): the
    // request goes in its statement, and so does the stamp, which its row can take only once.
    const move = heldTransitions(sql, job.id)?.writes.find((w): w is StepTransitionWrite => w.kind === 'step' && w.step === step.name && !w.dispatch);
    if (move) {
      move.patch = { ...move.patch, ...stamp };
      move.dispatch = { outbox: outbox.values, attempt: step.attempt, lane: step.lane };
      applyStepPatch(step, stamp);
      return;
    }
    // One statement: the request's outbox row, the attempt's history row and the stamp. Settled
    // at commit: nothing here waits for its answer.
    const params: unknown[] = [job.id, step.name, step.attempt, step.lane, ...outbox.values];
    const sets = stepPatchSets(stamp, params);
    await settleAtCommit(sql, sql.execute(
      `WITH outbox AS (
         INSERT INTO "${API_SCHEMA}".outbox (${OUTBOX_COLUMNS}) VALUES ($5, $6, $7, $8, $9, $10, $11)
       ), attempt AS (
         ${dispatchedAttemptSql({ jobId: '$1', step: '$2', attempt: '$3', lane: '$4' })}
       )
       UPDATE api.job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND name = $2`,
      params,
    ));
    applyStepPatch(step, stamp);
  }

  /**
   * A span in the JOB's trace for an attempt dispatched outside the submit (a retry, a watchdog
   * re-dispatch, a replay): the attempt's worker spans hang under it, so every attempt of a job
   * stays in one trace. When something else asked for it (the replay request, in a trace of its
   * own), the two are linked both ways, so either trace leads to the other.
   */
  private startDispatchSpan(job: JobRecord, step: StepRecord): Span {
    const caller = trace.getActiveSpan();
    const span = this.tracer.startSpan(
      SpanNames.dispatch(step.name),
      {
        attributes: { [SpanAttributes.jobId]: job.id, [SpanAttributes.step]: step.name, [SpanAttributes.attempt]: step.attempt },
        links: caller ? [{ context: caller.spanContext() }] : [],
      },
      contextFromTraceparent(job.traceparent),
    );
    caller?.addLink({ context: span.spanContext() });
    return span;
  }
}
