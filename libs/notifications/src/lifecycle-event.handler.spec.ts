import pino from 'pino';
import { EventTypes } from '@longhaul/contracts';
import { EffectLedger } from '@longhaul/persistence';
import { lifecycleHandlers } from './lifecycle-event.handler';

describe('lifecycleHandlers', () => {
  it('handles every lifecycle event type and records each with its version', async () => {
    const handlers = lifecycleHandlers(pino({ level: 'silent' }), new EffectLedger('notifier', true));
    expect(Object.keys(handlers).sort()).toEqual(
      [EventTypes.JobCompletedV1, EventTypes.JobFailedV1, EventTypes.JobStartedV1, EventTypes.JobCancelledV1, EventTypes.JobReopenedV1].sort(),
    );
    expect(handlers[EventTypes.StepTransitionedV1]).toBeUndefined();

    const statements: unknown[][] = [];
    const settled: boolean[] = [];
    const held: Array<{ table: string; values: unknown[] }> = [];
    const sql = {
      rows: async () => [],
      execute: async (_text: string, params: unknown[] = []) => (statements.push(params), 1),
      settleAtCommit: (_pending: Promise<unknown>, checked: boolean) => settled.push(checked),
      insertAtCommit: (target: { table: string }, values: unknown[]) => held.push({ table: target.table, values }),
    };
    const payload = { jobId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', jobType: 'video.process', status: 'completed' as const, version: 2, previousVersion: 0, result: {}, error: null, occurredAt: '2026-11-29T12:00:00.000Z', notify: null };
    await handlers[EventTypes.JobCompletedV1]!(sql, {
      id: '0192f0c4-0000-7000-8000-000000000009', type: EventTypes.JobCompletedV1, key: payload.jobId, topic: 'job.lifecycle', partition: 0, offset: '1', traceparent: null, payload,
    });
    // The record is held to the transaction's commit, written there with the chunk's others.
    expect(held).toEqual([
      { table: 'notifier.received_events', values: ['0192f0c4-0000-7000-8000-000000000009', payload.jobId, 'JobCompleted.v1', 'completed', 2, JSON.stringify(payload)] },
    ]);
    // The ledger's row is not waited for: settled at commit, unchecked.
    expect(statements).toEqual([['notification.recorded', payload.jobId, null, 2]]);
    expect(settled).toEqual([false]);
  });
});
