import type { InboundEvent } from '@longhaul/messaging';
import type { Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { WorkQueueRepository } from '@longhaul/work-queue';
import { CancelledJobsRepository } from './cancelled-jobs.repository';
import { createStepRequestHandler, workItemKey } from './step-request.handler';
import { StepResultPublisher } from './step-result.publisher';

const JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';

describe('workItemKey', () => {
  it('is stable per job, step and attempt, and differs between attempts', () => {
    const base = { jobId: JOB, step: 'transcode' as const, attempt: 1 };
    expect(workItemKey(base)).toBe(workItemKey({ ...base }));
    expect(workItemKey(base)).not.toBe(workItemKey({ ...base, attempt: 2 }));
    expect(workItemKey(base)).not.toBe(workItemKey({ ...base, step: 'thumbnail' }));
  });
});

/** Just enough of one transaction to see what the handler wrote: work items, outbox rows, cancels. */
class FakeSql implements Sql {
  readonly workItems = new Map<string, unknown[]>();
  readonly outbox: Array<{ type: string; payload: Record<string, unknown> }> = [];
  readonly cancelledJobs = new Set<string>();
  readonly statements: string[] = [];

  async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    this.statements.push(text);
    if (text.includes('cancelled_jobs')) return (this.cancelledJobs.has(params[0] as string) ? [{ '?column?': 1 }] : []) as T[];
    return [];
  }

  async execute(text: string, params: unknown[] = []): Promise<number> {
    this.statements.push(text);
    if (text.includes('INSERT INTO "transcoder".work_items')) {
      if (this.workItems.has(params[1] as string)) return 0;
      this.workItems.set(params[1] as string, params);
      return 1;
    }
    if (text.includes('INSERT INTO "transcoder".outbox')) {
      this.outbox.push({ type: params[3] as string, payload: JSON.parse(params[4] as string) });
      return 1;
    }
    throw new Error(`unexpected SQL: ${text}`);
  }
}

const logger = { child: () => logger, info: jest.fn(), debug: jest.fn(), warn: jest.fn() } as unknown as Logger;

function requestEvent(lane: 'fast' | 'slow'): InboundEvent {
  return {
    id: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0e', type: 'TranscodeRequested.v1', key: JOB, topic: 'transcode.requests.slow',
    partition: 0, offset: '1', traceparent: null,
    payload: {
      jobId: JOB, step: 'transcode', attempt: 1, jobType: 'video.process', lane, source: { url: 'https://example.com/a.mp4' },
      outputs: {}, inputs: {}, metadata: null, requestedAt: new Date().toISOString(),
    },
  };
}

function slowLaneHandler(onQueued?: () => void) {
  return createStepRequestHandler({
    queue: new WorkQueueRepository('transcoder'),
    cancelledJobs: new CancelledJobsRepository('transcoder'),
    publisher: new StepResultPublisher('transcoder', 'transcoder-w1'),
    lane: 'slow',
    deadlineMs: 60_000,
    logger,
    onQueued,
  });
}

describe('createStepRequestHandler', () => {
  const handler = slowLaneHandler();

  it("queues the item in the consumer's lane, whatever the request says, and acknowledges it with StepQueued", async () => {
    const sql = new FakeSql();
    await handler(sql, requestEvent('fast'));
    const [item] = [...sql.workItems.values()];
    expect(item![4]).toBe('slow');
    expect(sql.outbox).toEqual([
      {
        type: 'StepQueued.v1',
        payload: { jobId: JOB, step: 'transcode', attempt: 1, worker: 'transcoder-w1', lane: 'slow', queuedAt: expect.any(String) },
      },
    ]);
  });

  it('acknowledges an attempt only once', async () => {
    const sql = new FakeSql();
    await handler(sql, requestEvent('slow'));
    await handler(sql, requestEvent('slow'));
    expect(sql.workItems.size).toBe(1);
    expect(sql.outbox).toHaveLength(1);
  });

  it('queues and publishes nothing for a cancelled job, after serialising with its cancel', async () => {
    const sql = new FakeSql();
    sql.cancelledJobs.add(JOB);
    await handler(sql, requestEvent('slow'));
    expect(sql.workItems.size).toBe(0);
    expect(sql.outbox).toEqual([]);
    expect(sql.statements[0]).toContain('pg_advisory_xact_lock');
  });

  it('wakes the runner once a new item has committed, and not for a duplicate or a cancelled job', async () => {
    const woken: string[] = [];
    const effects: Array<() => void> = [];
    const waking = slowLaneHandler(() => woken.push('wake'));
    const sql = Object.assign(new FakeSql(), { afterCommit: (effect: () => void) => effects.push(effect) });
    await waking(sql, requestEvent('slow'));
    // Not before the commit: the runner would claim before the item is visible to it.
    expect(woken).toEqual([]);
    expect(effects).toHaveLength(1);
    effects[0]!();
    expect(woken).toEqual(['wake']);

    await waking(sql, requestEvent('slow'));
    const cancelled = Object.assign(new FakeSql(), { afterCommit: (effect: () => void) => effects.push(effect) });
    cancelled.cancelledJobs.add(JOB);
    await waking(cancelled, requestEvent('slow'));
    expect(effects).toHaveLength(1);
  });
});
