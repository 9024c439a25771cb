import { withPgClient } from '@longhaul/persistence/testing';
import { Registry } from 'prom-client';
import type { DataSource, Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import type { RunContext, WorkQueueRunnerOptions } from './work-queue-runner.options';
import { WorkQueueRunner } from './work-queue.runner';

/*
 * The runner against an in-memory stand-in for one `work_items` row: enough SQL recognised to
 * claim, heartbeat, read the status and finish, with every statement recorded per transaction,
 * so the tests can see what shares a transaction with what. The real SQL runs in the
 * integration tests.
 */
class FakeWorkItems {
  status = 'queued';
  token: string | null = null;
  claimed = false;
  readonly transactions: string[][] = [];
  private current: string[] | null = null;

  readonly dataSource = {
    createQueryRunner: () => {
      let inTx = false;
      return withPgClient({
        release: async () => undefined,
        startTransaction: async () => {
          inTx = true;
          this.current = [];
        },
        commitTransaction: async () => this.end(),
        rollbackTransaction: async () => this.end(),
        get isTransactionActive() {
          return inTx;
        },
        query: async (text: string, params: unknown[] = []) => this.query(text, params),
      });
    },
  } as unknown as DataSource;

  /** Another runner takes the item over (its lease expired). */
  takeOver(): void {
    this.token = 'someone-else';
  }

  statementsOf(kind: string): string[][] {
    return this.transactions.filter((tx) => tx.includes(kind));
  }

  private end(): void {
    if (this.current) this.transactions.push(this.current);
    this.current = null;
  }

  private record(kind: string): void {
    if (this.current) this.current.push(kind);
    else this.transactions.push([kind]);
  }

  private query(text: string, params: unknown[]): { records: unknown[]; affected?: number } {
    const sql = text.replace(/\s+/g, ' ').trim();
    if (sql.startsWith('WITH next AS')) {
      this.record('claim');
      if (this.claimed || this.status !== 'queued') return { records: [] };
      this.claimed = true;
      this.status = 'running';
      // The database draws each claimed item's lease token.
      this.token = `lease-${params[0] as string}`;
      return { records: [row(this.token)] };
    }
    if (sql.includes('AS f(id, token, result)')) {
      // The successes of one turn, marked in one statement: this stand-in has one item.
      this.record('finish:succeeded');
      const [ids, tokens] = params as [string[], string[]];
      const held = tokens[0] === this.token && this.status === 'running';
      if (held) this.status = 'succeeded';
      return { records: held ? [{ id: ids[0] }] : [] };
    }
    const ours = params[1] === this.token && this.status === 'running';
    if (sql.includes('SET lease_until = now()')) {
      this.record('heartbeat');
      return { records: [], affected: ours ? 1 : 0 };
    }
    if (sql.startsWith('SELECT status')) {
      this.record('status');
      return { records: [{ status: this.status }] };
    }
    if (sql.includes('SET status = $3')) {
      this.record(`finish:${params[2] as string}`);
      if (ours) this.status = params[2] as string;
      return { records: [], affected: ours ? 1 : 0 };
    }
    if (sql.startsWith('-- publish')) {
      this.record(`publish:${params[0] as string}`);
      return { records: [], affected: 1 };
    }
    throw new Error(`unexpected SQL: ${sql}`);
  }
}

function row(token: string) {
  return {
    id: 'item-1', dedupe_key: 'job-1:transcode:1', kind: 'transcode', job_id: 'job-1', lane: 'fast', payload: {},
    traceparent: null, status: 'running', claims: 1, lease_owner: 'w1', lease_token: token, deadline_ms: 60_000, created_at: new Date(),
  };
}

function fakeLogger() {
  const lines: Array<{ level: string; msg: string }> = [];
  const logger: Record<string, unknown> = { child: () => logger };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
    logger[level] = (first: unknown, msg?: string) => lines.push({ level, msg: msg ?? String(first) });
  }
  return { logger: logger as unknown as Logger, messages: () => lines.map((l) => `${l.level}: ${l.msg}`) };
}

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A step that runs until the runner aborts it, and keeps what it was aborted with. */
function untilAborted(seen: { reason?: unknown }) {
  return (_item: unknown, run: RunContext) =>
    new Promise<never>((_resolve, reject) => {
      run.signal.addEventListener('abort', () => {
        seen.reason = run.signal.reason;
        reject(new Error('killed'));
      });
    });
}

describe('WorkQueueRunner', () => {
  let db: FakeWorkItems;
  let log: ReturnType<typeof fakeLogger>;
  let runner: WorkQueueRunner<Record<string, unknown>> | null;
  /** A callback that writes one marker row on the transaction it is given, as publishing does. */
  const publish =
    (type: string) =>
    async (sql: Sql, ..._rest: unknown[]): Promise<void> => {
      await sql.execute('-- publish', [type]);
    };

  function start(overrides: Partial<WorkQueueRunnerOptions<Record<string, unknown>>>) {
    runner = new WorkQueueRunner<Record<string, unknown>>({
      dataSource: db.dataSource,
      schema: 'transcoder',
      owner: 'w1',
      lane: 'fast',
      concurrency: 1,
      heartbeatMs: 10,
      pollMs: 5,
      logger: log.logger,
      execute: async () => ({}),
      onSucceeded: jest.fn(publish('completed')),
      onFailed: jest.fn(publish('failed')),
      onDemoted: jest.fn(publish('demoted')),
      onProgress: jest.fn(publish('progress')),
      ...overrides,
    });
    runner.start();
    return runner;
  }

  /** Reserves a slot, writes the item as the consumer's insert would (running under that claim), and runs it there. */
  function runInReservedSlot(): void {
    const claim = runner!.reserveSlot()!;
    db.status = 'running';
    db.claimed = true;
    db.token = claim.token;
    runner!.runReserved(claim, {
      id: 'item-1', dedupeKey: 'job-1:transcode:1', kind: 'transcode', jobId: 'job-1', lane: 'fast', payload: {}, traceparent: null,
      status: 'running', claims: 1, leaseOwner: 'w1', leaseToken: claim.token, deadlineMs: 60_000,
    });
  }

  beforeEach(() => {
    db = new FakeWorkItems();
    log = fakeLogger();
    runner = null;
  });
  afterEach(async () => {
    await runner?.stop(0);
  });

  it('claims an item at once when woken, without waiting for its poll', async () => {
    db.status = 'absent';
    const claims = () => db.statementsOf('claim').length;
    start({ pollMs: 600_000 });
    await until(() => claims() === 1);
    // The item commits after the first pass found nothing; the next poll is ten minutes away.
    db.status = 'queued';
    runner!.wake();
    await until(() => db.status === 'succeeded');
  });

  it('measures how long each run took, by how it ended', async () => {
    const registry = new Registry();
    start({ registry, execute: async () => ({ done: true }) });
    await until(() => db.status === 'succeeded');
    await until(() => log.messages().includes('debug: work item finished'));
    await runner!.stop(0);
    const text = await registry.metrics();
    expect(text).toContain('longhaul_step_duration_seconds_count{step="transcode",lane="fast",outcome="succeeded"} 1');
    expect(text).toContain('longhaul_step_duration_seconds_bucket{le="14400",step="transcode",lane="fast",outcome="succeeded"} 1');
  });

  it('labels a run whose job was cancelled as cancelled', async () => {
    const registry = new Registry();
    start({ registry, execute: untilAborted({}) });
    await until(() => db.status === 'running');
    db.status = 'cancelled';
    await until(() => log.messages().includes('info: work item cancelled'));
    await runner!.stop(0);
    expect(await registry.metrics()).toContain('longhaul_step_duration_seconds_count{step="transcode",lane="fast",outcome="cancelled"} 1');
  });

  it('stops a cancelled job on its next heartbeat and records nothing', async () => {
    const seen: { reason?: unknown } = {};
    const r = start({ execute: untilAborted(seen) });
    await until(() => db.status === 'running');
    db.status = 'cancelled';
    await until(() => log.messages().includes('info: work item cancelled'));
    expect(seen.reason).toMatchObject({ code: 'step_cancelled' });
    expect(db.transactions.flat().filter((s) => s.startsWith('finish') || s.startsWith('publish'))).toEqual([]);
    await r.stop(0);
  });

  it('does not mistake a lease taken over for a cancel', async () => {
    const seen: { reason?: unknown } = {};
    start({ execute: untilAborted(seen) });
    await until(() => db.status === 'running');
    db.takeOver();
    await until(() => seen.reason !== undefined);
    await until(() => log.messages().includes('warn: lease lost to another worker; result discarded'));
    expect((seen.reason as Error).name).toBe('LeaseLostError');
    expect(log.messages()).not.toContain('info: work item cancelled');
    expect(db.transactions.flat().filter((s) => s.startsWith('finish') || s.startsWith('publish'))).toEqual([]);
  });

  it('records an aborted run only once its executor has wound down (its child process is gone)', async () => {
    let woundDown = false;
    let finishedWhileRunning: boolean | null = null;
    start({
      budgetMs: 20,
      // Like a child process that takes a moment to die after SIGTERM.
      execute: (_item, run) =>
        new Promise((_resolve, reject) => {
          run.signal.addEventListener('abort', () =>
            setTimeout(() => {
              woundDown = true;
              reject(new Error('killed'));
            }, 150),
          );
        }),
      onDemoted: jest.fn(async (sql: Sql) => {
        finishedWhileRunning = !woundDown;
        await sql.execute('-- publish', ['demoted']);
      }),
    });
    await until(() => db.status === 'demoted');
    expect(finishedWhileRunning).toBe(false);
  });

  it('demotes a run over its lane budget in one transaction with its announcement, without failing it', async () => {
    const seen: { reason?: unknown } = {};
    const onFailed = jest.fn();
    const onDemoted = jest.fn(publish('demoted'));
    start({ execute: untilAborted(seen), budgetMs: 30, onFailed, onDemoted });
    await until(() => db.status === 'demoted');
    expect(seen.reason).toMatchObject({ code: 'step_over_budget' });
    expect(db.statementsOf('finish:demoted')).toEqual([['finish:demoted', 'publish:demoted']]);
    expect(onDemoted).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ id: 'item-1', lane: 'fast' }), 30);
    expect(onFailed).not.toHaveBeenCalled();
  });

  it('reports the latest progress only in a renewal that held the lease', async () => {
    const onProgress = jest.fn(publish('progress'));
    start({
      progressMs: 25,
      onProgress,
      execute: async (_item, run) => {
        run.reportProgress(0.25);
        run.reportProgress(1.7); // clamped
        run.reportProgress(0.4);
        await new Promise((resolve) => setTimeout(resolve, 90));
        return { ok: true };
      },
    });
    await until(() => db.status === 'succeeded');
    expect(onProgress).toHaveBeenCalled();
    for (const call of onProgress.mock.calls) expect(call[2]).toBe(0.4);
    for (const tx of db.statementsOf('publish:progress')) expect(tx).toEqual(['heartbeat', 'publish:progress']);
    expect(db.statementsOf('finish:succeeded')).toEqual([['finish:succeeded', 'publish:completed']]);
  });

  it('sends progress as null when the step never reported any', async () => {
    const onProgress = jest.fn(publish('progress'));
    start({ progressMs: 15, onProgress, execute: () => new Promise((resolve) => setTimeout(() => resolve({}), 60)) });
    await until(() => db.status === 'succeeded');
    expect(onProgress.mock.calls.map((c) => c[2])).toContain(null);
  });

  it('discards the result of a run whose job was cancelled as it finished', async () => {
    const onSucceeded = jest.fn(publish('completed'));
    start({
      onSucceeded,
      execute: async () => {
        db.status = 'cancelled';
        return { late: true };
      },
    });
    await until(() => log.messages().includes('info: work item cancelled; result discarded'));
    expect(onSucceeded).not.toHaveBeenCalled();
  });

  it('claims nothing into a slot held for an item being inserted, and claims again once it is released', async () => {
    db.status = 'absent';
    start({ pollMs: 600_000 });
    await until(() => db.statementsOf('claim').length === 1);
    const claim = runner!.reserveSlot();
    expect(claim).toMatchObject({ owner: 'w1', leaseMs: 30_000 });
    // One slot, held: no second reservation, and a wake-up claims nothing.
    expect(runner!.reserveSlot()).toBeNull();
    db.status = 'queued';
    runner!.wake();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(db.statementsOf('claim')).toHaveLength(1);
    runner!.releaseSlot(claim!);
    await until(() => db.status === 'succeeded');
    expect(db.statementsOf('claim').length).toBeGreaterThanOrEqual(2);
  });

  it('sends no claim when a slot frees up and the last claim found the queue empty', async () => {
    db.status = 'absent';
    start({ pollMs: 600_000, concurrency: 2 });
    await until(() => db.statementsOf('claim').length === 1);
    runInReservedSlot();
    await until(() => db.status === 'succeeded');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The first claim came back short: the freed slot waits for the (ten-minute) poll.
    expect(db.statementsOf('claim')).toHaveLength(1);
  });

  it('runs an item inserted under a reserved claim without claiming it, and finishes it under that lease', async () => {
    db.status = 'absent';
    start({ pollMs: 600_000 });
    await until(() => db.statementsOf('claim').length === 1);
    runInReservedSlot();
    await until(() => db.status === 'succeeded');
    expect(db.statementsOf('claim')).toHaveLength(1);
    expect(db.statementsOf('finish:succeeded')).toEqual([['finish:succeeded', 'publish:completed']]);
  });

  it('announces the start of a run that lasts, once, in a renewal of its lease, before its outcome', async () => {
    let finish: () => void = () => undefined;
    start({ startReportMs: 20, heartbeatMs: 60_000, onStarted: publish('started'), execute: () => new Promise((resolve) => (finish = () => resolve({})) ) });
    await until(() => db.statementsOf('publish:started').length === 1);
    expect(db.statementsOf('publish:started')).toEqual([['heartbeat', 'publish:started']]);
    finish();
    await until(() => db.status === 'succeeded');
    expect(db.statementsOf('publish:started')).toHaveLength(1);
  });

  it('announces no start for a run that ends sooner: its outcome says it ran', async () => {
    start({ startReportMs: 60_000, onStarted: publish('started') });
    await until(() => db.status === 'succeeded');
    expect(db.statementsOf('publish:started')).toEqual([]);
    expect(db.statementsOf('finish:succeeded')).toEqual([['finish:succeeded', 'publish:completed']]);
  });

  it('announces no start for a run whose lease no longer holds', async () => {
    const seen: { reason?: unknown } = {};
    start({ startReportMs: 20, heartbeatMs: 60_000, onStarted: publish('started'), execute: untilAborted(seen) });
    await until(() => db.status === 'running');
    db.takeOver();
    await until(() => db.statementsOf('heartbeat').length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.statementsOf('publish:started')).toEqual([]);
  });

  it('reserves no slot once stopping', async () => {
    const r = start({});
    await r.stop(0);
    expect(r.reserveSlot()).toBeNull();
  });
});

