import { Registry } from 'prom-client';
import type { EffectLedger, Sql } from '@longhaul/persistence';
import { recordingSql } from '@longhaul/persistence/testing';
import type { Logger } from '@longhaul/telemetry';
import type { JobRecord, StepRecord } from '../job.repository';
import { JobTransitions } from './job.transitions';

const JOB_ID = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const ledger = { record: async () => undefined } as unknown as EffectLedger;

/**
 * Records each transition statement's feed entries (its parameter of JSON texts with a `kind`,
 * numbered in order) and answers the job's version the way Postgres would.
 */
function fakeSql() {
  const feed: Array<{ kind: string; event: Record<string, unknown> }> = [];
  const statements: number[] = [];
  let version = 0;
  const sql: Sql = {
    async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
      if (!text.startsWith('WITH job AS')) return [];
      const entries = params.find((p): p is string[] => Array.isArray(p) && typeof p[0] === 'string' && p[0].startsWith('{"kind"'));
      for (const entry of entries ?? []) {
        const event = JSON.parse(entry) as Record<string, unknown>;
        feed.push({ kind: event['kind'] as string, event });
      }
      version += entries?.length ?? 0;
      statements.push(entries?.length ?? 0);
      return [{ version, seq: feed.length }] as T[];
    },
    async execute(): Promise<number> {
      return 1;
    },
  };
  return { sql, feed, statements };
}

const job = (): JobRecord => ({ id: JOB_ID, type: 'video.process', status: 'pending', lane: 'fast', version: 0, lifecycleVersion: 0, notify: null } as unknown as JobRecord);
const step = (status: StepRecord['status']): StepRecord =>
  ({ jobId: JOB_ID, name: 'transcode', position: 0, status, attempt: 1, lane: 'fast', failures: 0, startedAt: null } as unknown as StepRecord);

describe('JobTransitions and the job feed', () => {
  it('appends a step.status entry with the transition, and a job.status entry with each job change', async () => {
    const { sql, feed } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const transcode = step('queued');
    expect(await transitions.moveStep(sql, record, transcode, 'running')).toBe(true);
    expect(await transitions.moveJob(sql, record, 'running')).toBe(true);
    const error = { code: 'step_failed', message: 'boom', retryable: false };
    expect(await transitions.moveStep(sql, record, transcode, 'failed', { error }, { error })).toBe(true);
    expect(await transitions.moveJob(sql, record, 'failed', { error })).toBe(true);

    expect(feed.map((e) => e.kind)).toEqual(['step.status', 'job.status', 'step.status', 'job.status']);
    expect(feed[0]!.event).toEqual({
      kind: 'step.status',
      jobId: JOB_ID,
      at: expect.any(String),
      step: 'transcode',
      from: 'queued',
      to: 'running',
      attempt: 1,
      lane: 'fast',
      reason: null,
      retryAt: null,
      error: null,
    });
    expect(feed[1]!.event).toEqual({ kind: 'job.status', jobId: JOB_ID, at: expect.any(String), status: 'running', result: null, error: null });
    expect(feed[3]!.event).toMatchObject({ status: 'failed', error });
  });

  it('writes nothing to the feed for a refused or empty move', async () => {
    const { sql, feed } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    expect(await transitions.moveStep(sql, record, step('succeeded'), 'running')).toBe(false);
    expect(await transitions.moveJob(sql, record, 'pending')).toBe(false);
    expect(feed).toEqual([]);
  });

  it('clears the error on the job.status entry of a reopened job', async () => {
    const { sql, feed } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = { ...job(), status: 'failed' } as JobRecord;
    const error = { code: 'step_lost', message: 'lost', retryable: true };
    expect(await transitions.moveJob(sql, record, 'running', { reason: 'replay', error })).toBe(true);
    expect(feed[0]!.event).toMatchObject({ status: 'running', error: null });
  });
});

describe('JobTransitions and the attempt history', () => {
  it("changes the attempt's history row in the transition's own statement", async () => {
    let version = 0;
    const { sql, sent: statements } = recordingSql({ rows: () => [{ version: ++version, seq: version + 1 }] });
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const transcode = { ...step('queued'), attempt: 3 };
    await transitions.moveStep(sql, record, transcode, 'running', {}, { attempt: { to: 'running', worker: 'transcoder-w1' } });
    await transitions.moveStep(sql, record, transcode, 'succeeded', {}, { attempt: { to: 'succeeded', error: null, worker: 'transcoder-w1' } });
    expect(statements).toHaveLength(2);
    const [started, ended] = statements;
    expect(started!.text).toMatch(/attempt_1 AS \(UPDATE api\.step_attempts SET status = 'running'/);
    expect(started!.params).toEqual(expect.arrayContaining([3, 'transcoder-w1']));
    expect(ended!.text).toContain('finished_at = now()');
    expect(ended!.params).toEqual(expect.arrayContaining([3, 'succeeded', 'transcoder-w1']));
  });
});

/** What each transition statement announces on `job.lifecycle`, and where it moves the job's `lifecycle_version`. */
function announcements(sent: ReadonlyArray<{ text: string; params: unknown[] }>) {
  return sent.filter(({ text }) => text.startsWith('WITH job AS')).map(({ text, params }) => {
    const payloads = params.find((p): p is string[] => Array.isArray(p) && p.some((v) => typeof v === 'string' && v.includes('"previousVersion"'))) ?? [];
    const set = /lifecycle_version = \$(\d+)/.exec(text);
    return {
      events: payloads.map((payload) => {
        const event = JSON.parse(payload) as Record<string, unknown>;
        return `${String(event['step'] ?? event['status'])} after v${String(event['previousVersion'])}`;
      }),
      lifecycleVersion: set ? params[Number(set[1]) - 1] : undefined,
    };
  });
}

describe('JobTransitions and job.lifecycle', () => {
  const run = async (options: { stepEvents?: boolean; startEvents?: boolean }) => {
    const { sql, sent } = recordingSql({ rows: () => [{ version: 0, seq: 0 }] });
    const transitions = new JobTransitions(silent, ledger, new Registry(), options);
    const record = job();
    const transcode = step('queued');
    const thumbnail = { ...step('pending'), name: 'thumbnail', position: 1 } as StepRecord;
    await transitions.together(sql, record, async () => {
      await transitions.moveStep(sql, record, transcode, 'succeeded'); // v1
      await transitions.moveJob(sql, record, 'running'); // v2
      await transitions.moveStep(sql, record, thumbnail, 'queued', { attempt: 1 }); // v3
    });
    await transitions.moveStep(sql, record, thumbnail, 'running'); // v4
    await transitions.together(sql, record, async () => {
      await transitions.moveStep(sql, record, thumbnail, 'succeeded'); // v5
      await transitions.moveJob(sql, record, 'completed', { result: {} }); // v6
    });
    return { statements: announcements(sent), record };
  };

  it("announces only the job's end by default, linked by previousVersion to the last event announced", async () => {
    const { statements, record } = await run({});
    expect(statements).toEqual([
      // The start is on the feed only, and a statement that announces nothing leaves
      // lifecycle_version alone.
      { events: [], lifecycleVersion: undefined },
      { events: [], lifecycleVersion: undefined },
      { events: ['completed after v0'], lifecycleVersion: 6 },
    ]);
    expect(record).toMatchObject({ version: 6, lifecycleVersion: 6 });
  });

  it("announces the job's start too with startEvents, its end then linked to it", async () => {
    const { statements, record } = await run({ startEvents: true });
    expect(statements).toEqual([
      { events: ['running after v0'], lifecycleVersion: 2 },
      { events: [], lifecycleVersion: undefined },
      { events: ['completed after v2'], lifecycleVersion: 6 },
    ]);
    expect(record).toMatchObject({ version: 6, lifecycleVersion: 6 });
  });

  it("announces a reopened job's return to running without startEvents: it is not a start", async () => {
    const { sql, sent } = recordingSql({ rows: () => [{ version: 0, seq: 0 }] });
    const transitions = new JobTransitions(silent, ledger, new Registry());
    const record = { ...job(), status: 'failed', version: 4, lifecycleVersion: 4 } as JobRecord;
    await transitions.moveJob(sql, record, 'running', { reason: 'replay' });
    expect(announcements(sent)).toEqual([{ events: ['running after v4'], lifecycleVersion: 5 }]);
  });

  it('announces every transition with stepEvents and startEvents, the chain then following the versions', async () => {
    const { statements, record } = await run({ stepEvents: true, startEvents: true });
    expect(statements).toEqual([
      { events: ['transcode after v0', 'running after v1', 'thumbnail after v2'], lifecycleVersion: 3 },
      { events: ['thumbnail after v3'], lifecycleVersion: 4 },
      { events: ['thumbnail after v4', 'completed after v5'], lifecycleVersion: 6 },
    ]);
    expect(record).toMatchObject({ version: 6, lifecycleVersion: 6 });
  });
});

describe('JobTransitions.together', () => {
  it("writes the moves of the job and its steps made inside it in one statement, numbered in order", async () => {
    const { sql, feed, statements } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const transcode = step('queued');
    const thumbnail = { ...step('pending'), name: 'thumbnail', position: 1 } as StepRecord;
    await transitions.together(sql, record, async () => {
      await transitions.moveStep(sql, record, transcode, 'succeeded');
      await transitions.moveJob(sql, record, 'running');
      await transitions.moveStep(sql, record, thumbnail, 'queued', { attempt: 1 });
      expect(statements).toEqual([]);
    });
    expect(statements).toEqual([3]);
    expect(feed.map((e) => `${e.kind} ${String(e.event['step'] ?? e.event['status'])}`)).toEqual([
      'step.status transcode',
      'job.status running',
      'step.status thumbnail',
    ]);
    expect(record.version).toBe(3);
  });

  it('writes what it holds before a second move of the same step, and nothing when the work throws', async () => {
    const { sql, statements } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const transcode = step('queued');
    await transitions.together(sql, record, async () => {
      await transitions.moveStep(sql, record, transcode, 'running');
      await transitions.moveJob(sql, record, 'running');
      await transitions.moveStep(sql, record, transcode, 'succeeded');
    });
    expect(statements).toEqual([2, 1]);
    await expect(
      transitions.together(sql, record, async () => {
        await transitions.moveJob(sql, record, 'completed', { result: {} });
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(statements).toEqual([2, 1]);
  });
});

describe('JobTransitions and the job counters', () => {
  it('counts a job that ended, by type, lane and status, once its transaction commits', async () => {
    const { sql: base } = fakeSql();
    const committed: Array<() => void> = [];
    const sql: Sql = { ...base, afterCommit: (effect) => committed.push(effect) };
    const registry = new Registry();
    const transitions = new JobTransitions(silent, ledger, registry);
    const record = job();
    await transitions.moveJob(sql, record, 'running');
    await transitions.moveJob(sql, record, 'completed', { result: {} });
    expect(await registry.metrics()).not.toContain('longhaul_jobs_finished_total{');
    for (const effect of committed) effect();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_jobs_finished_total{type="video.process",lane="fast",status="completed"} 1');
    expect(text).not.toContain('status="running"');
  });
});

describe('JobTransitions and the records the caller holds', () => {
  it('keep the step and the job as their rows are written, for a later event of the job in the transaction', async () => {
    const { sql } = fakeSql();
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const transcode = step('queued');
    await transitions.moveStep(sql, record, transcode, 'running', { worker: 'transcoder-w1' });
    expect(transcode).toMatchObject({ status: 'running', worker: 'transcoder-w1', startedAt: expect.any(Date) });
    const firstStart = transcode.startedAt;
    await transitions.moveStep(sql, record, transcode, 'queued', { attempt: 2, failures: 1, worker: null }, { reason: 'retry' });
    await transitions.moveStep(sql, record, transcode, 'running', { worker: 'transcoder-w2' });
    // A step's first start is kept, as `coalesce(started_at, now())` keeps it in its row.
    expect(transcode).toMatchObject({ status: 'running', attempt: 2, failures: 1, worker: 'transcoder-w2', startedAt: firstStart });
    await transitions.moveJob(sql, record, 'running');
    await transitions.moveJob(sql, record, 'completed', { result: { transcode: {} } });
    expect(record).toMatchObject({ status: 'completed', version: 5, result: { transcode: {} }, startedAt: expect.any(Date), finishedAt: expect.any(Date) });
  });

  it('guards the job row with the version read, so a statement that finds another one fails in Postgres, and nothing holds COMMIT for its answer', async () => {
    const { sql: recording, sent } = recordingSql({ rows: () => [{ version: 1, seq: 1 }] });
    const settled: boolean[] = [];
    const sql: Sql = { ...recording, settleAtCommit: (_pending, checked) => settled.push(checked) };
    const transitions = new JobTransitions(silent, ledger);
    await transitions.moveJob(sql, job(), 'running');
    await transitions.moveStep(sql, { ...job(), version: 4 } as JobRecord, step('queued'), 'running');

    const guards = sent.map(({ text, params }) => {
      const guard = /UPDATE api\.jobs SET .* WHERE id = \$1 AND version = \$(\d+)/s.exec(text);
      const raise = /CASE WHEN job\.id IS NULL THEN api\.job_version_conflict\(\$1, \$(\d+)::bigint, \$(\d+)\)/.exec(text);
      return { version: params[Number(guard?.[1]) - 1], raisedWith: params[Number(raise?.[1]) - 1], what: params[Number(raise?.[2]) - 1] };
    });
    expect(guards).toEqual([
      { version: 0, raisedWith: 0, what: 'status running not written' },
      { version: 4, raisedWith: 4, what: 'step transcode to running not written' },
    ]);
    // Settled at commit unchecked: COMMIT goes out behind the statement without waiting for it.
    expect(settled).toEqual([false, false]);
  });
});
