import type { InboundEvent } from '@longhaul/messaging';
import type { Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { WorkQueueRepository, type PreClaim, type WorkItem } from '@longhaul/work-queue';
import { CancelledJobsRepository } from './cancelled-jobs.repository';
import { createStepRequestHandler, workItemKey, type LaneSlots } from './step-request.handler';
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
    if (text.includes('SELECT job_id FROM "transcoder".cancelled_jobs')) {
      const asked = Array.isArray(params[0]) ? (params[0] as string[]) : [params[0] as string];
      return asked.filter((id) => this.cancelledJobs.has(id)).map((id) => ({ job_id: id.toUpperCase() })) as T[];
    }
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

/** A lane runner's slots as the handler sees them, recording what it was asked. */
class FakeSlots implements LaneSlots {
  free: number;
  readonly log: string[] = [];
  readonly ran: WorkItem[] = [];

  constructor(free = 0) {
    this.free = free;
  }

  reserveSlot(): PreClaim | null {
    if (this.free === 0) return null;
    this.free -= 1;
    this.log.push('reserve');
    return { owner: 'transcoder-w1', token: `token-${this.log.length}`, leaseMs: 30_000 };
  }

  runReserved(claim: PreClaim, item: WorkItem): void {
    this.log.push(`run ${claim.token}`);
    this.ran.push(item);
  }

  releaseSlot(claim: PreClaim): void {
    this.free += 1;
    this.log.push(`release ${claim.token}`);
  }

  wake(): void {
    this.log.push('wake');
  }
}

function slowLaneHandler(slots?: LaneSlots, queuedReportMs = 0) {
  return slowLaneRequests(slots, queuedReportMs).handle;
}

/** `queuedReportMs` 0 (the default here): a queued item is announced as it is inserted. */
function slowLaneRequests(slots?: LaneSlots, queuedReportMs = 0) {
  return createStepRequestHandler({
    queue: new WorkQueueRepository('transcoder'),
    cancelledJobs: new CancelledJobsRepository('transcoder'),
    publisher: new StepResultPublisher('transcoder', 'transcoder-w1'),
    lane: 'slow',
    deadlineMs: 60_000,
    queuedReportMs,
    logger,
    slots,
  });
}

/** A transaction whose after-commit and after-rollback effects wait to be run by the test. */
function transaction(): FakeSql & { commit(): void; rollback(): void } {
  const onCommit: Array<() => void> = [];
  const onRollback: Array<() => void> = [];
  return Object.assign(new FakeSql(), {
    afterCommit: (effect: () => void) => onCommit.push(effect),
    afterRollback: (effect: () => void) => onRollback.push(effect),
    commit: () => onCommit.forEach((effect) => effect()),
    rollback: () => onRollback.forEach((effect) => effect()),
  });
}

describe('createStepRequestHandler', () => {
  const handler = slowLaneHandler();

  it("queues the item in the consumer's lane, whatever the request says, and acknowledges it with StepQueued", async () => {
    const sql = new FakeSql();
    await handler(sql, requestEvent('fast'));
    const [item] = [...sql.workItems.values()];
    expect(item![4]).toBe('slow');
    expect(item![8]).toBeNull();
    // written announced, so the announcing pass leaves it alone
    expect(item![11]).toBe(true);
    expect(sql.outbox).toEqual([
      {
        type: 'StepQueued.v1',
        payload: { jobId: JOB, step: 'transcode', attempt: 1, worker: 'transcoder-w1', lane: 'slow', queuedAt: expect.any(String) },
      },
    ]);
  });

  it('with a report delay, queues the item unannounced and publishes nothing: the announcing pass speaks for it if it waits', async () => {
    const slots = new FakeSlots(0);
    const sql = transaction();
    await slowLaneHandler(slots, 10_000)(sql, requestEvent('slow'));
    const [item] = [...sql.workItems.values()];
    expect(item![8]).toBeNull();
    expect(item![11]).toBe(false);
    expect(sql.outbox).toEqual([]);
    sql.commit();
    expect(slots.log).toEqual(['wake']);
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

  it("locks a batch's jobs and reads their cancels up front, so a request then sends no statement for them", async () => {
    const other = '0192f0c4-1d5e-7a3b-9c4d-000000000002';
    const requests = slowLaneRequests();
    const sql = new FakeSql();
    sql.cancelledJobs.add(other);
    const cancelledOne = { ...requestEvent('slow'), payload: { ...requestEvent('slow').payload, jobId: other } };
    await requests.lockJobs(sql, [requestEvent('slow'), cancelledOne]);
    expect(sql.statements).toEqual([expect.stringContaining('pg_advisory_xact_lock(h)'), expect.stringContaining('job_id = ANY($1::uuid[])')]);
    await requests.handle(sql, requestEvent('slow'));
    await requests.handle(sql, cancelledOne);
    expect(sql.statements.filter((text) => text.includes('cancelled_jobs') || text.includes('advisory'))).toHaveLength(2);
    expect([...sql.workItems.values()].map((item) => item[3])).toEqual([JOB]);
  });

  it('wakes the runner once a new item has committed, and not for a duplicate or a cancelled job', async () => {
    const slots = new FakeSlots(0);
    const waking = slowLaneHandler(slots);
    const sql = transaction();
    await waking(sql, requestEvent('slow'));
    // Not before the commit: the runner would claim before the item is visible to it.
    expect(slots.log).toEqual([]);
    sql.commit();
    expect(slots.log).toEqual(['wake']);

    const again = transaction();
    again.workItems.set(`${JOB}:transcode:1`, []);
    await waking(again, requestEvent('slow'));
    const cancelled = transaction();
    cancelled.cancelledJobs.add(JOB);
    await waking(cancelled, requestEvent('slow'));
    again.commit();
    cancelled.commit();
    expect(slots.log).toEqual(['wake']);
  });

  it('inserts the item claimed when the lane has a free slot, announces nothing yet, and runs it after the commit', async () => {
    const slots = new FakeSlots(1);
    const sql = transaction();
    await slowLaneHandler(slots)(sql, requestEvent('slow'));
    const [item] = [...sql.workItems.values()];
    // owner, lease token and lease length of the reserved slot's claim
    expect(item!.slice(8, 11)).toEqual(['transcoder-w1', 'token-1', 30_000]);
    // The runner announces the start once the run has lasted a moment, or its outcome does.
    expect(sql.outbox).toEqual([]);
    expect(slots.ran).toEqual([]);
    sql.commit();
    expect(slots.log).toEqual(['reserve', 'run token-1']);
    expect(slots.ran).toEqual([
      expect.objectContaining({ dedupeKey: `${JOB}:transcode:1`, status: 'running', claims: 1, leaseOwner: 'transcoder-w1', leaseToken: 'token-1' }),
    ]);
  });

  it('gives the slot back when the item was not new, and when the transaction rolls back', async () => {
    const slots = new FakeSlots(1);
    const handle = slowLaneHandler(slots);
    const sql = transaction();
    sql.workItems.set(`${JOB}:transcode:1`, []);
    await handle(sql, requestEvent('slow'));
    expect(slots.log).toEqual(['reserve', 'release token-1']);
    expect(sql.outbox).toEqual([]);

    const rolledBack = transaction();
    await handle(rolledBack, requestEvent('slow'));
    rolledBack.rollback();
    expect(slots.log).toEqual(['reserve', 'release token-1', 'reserve', 'release token-3']);
    expect(slots.free).toBe(1);
  });
});
