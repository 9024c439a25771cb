import { withPgClient } from '@longhaul/persistence/testing';
import type { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { EventTypes, MessageHeaders } from '@longhaul/contracts';
import type { DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { EventConsumer, type EventConsumerOptions, type EventHandler } from './event-consumer';
import { laneOf } from './key-lanes.policy';

/*
 * The consumer's batch path against a stand-in database that records each transaction's
 * statements and outcome, and a stand-in kafkajs batch that records resolved offsets. What
 * Kafka and Postgres really do with them runs in the integration and fault suites.
 */
class RecordingDatabase {
  readonly transactions: Array<{ statements: string[]; outcome: 'commit' | 'rollback' }> = [];
  private readonly seen = new Set<string>();

  readonly dataSource = {
    createQueryRunner: () => {
      let current: { statements: string[]; pending: Set<string> } | null = null;
      return withPgClient({
        release: async () => undefined,
        get isTransactionActive() {
          return current !== null;
        },
        startTransaction: async () => {
          current = { statements: [], pending: new Set() };
        },
        commitTransaction: async () => {
          for (const id of current!.pending) this.seen.add(id);
          this.transactions.push({ statements: current!.statements, outcome: 'commit' });
          current = null;
        },
        rollbackTransaction: async () => {
          this.transactions.push({ statements: current!.statements, outcome: 'rollback' });
          current = null;
        },
        query: async (text: string, params: unknown[] = []) => {
          if (text.includes('.inbox')) {
            const ids = params[0] as string[];
            current?.statements.push(`inbox ${ids.join(',')}`);
            const fresh = ids.filter((id) => {
              const isNew = !this.seen.has(id) && !current?.pending.has(id);
              current?.pending.add(id);
              return isNew;
            });
            return { records: fresh.map((id) => ({ event_id: id })), affected: fresh.length };
          }
          current?.statements.push(text);
          return { records: [], affected: 1 };
        },
      });
    },
  } as unknown as DataSource;
}

const silent: Logger = (() => {
  const logger: Record<string, unknown> = { child: () => logger };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) logger[level] = () => undefined;
  return logger as unknown as Logger;
})();

const jobId = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';

function message(offset: number, options: { type?: string; id?: string; key?: string } = {}): KafkaMessage {
  const key = options.key ?? jobId;
  const started = { jobId: key, step: 'transcode', attempt: 1, worker: 'transcoder-1', startedAt: '2026-11-29T12:00:00.000Z' };
  const progress = { jobId: key, step: 'transcode', attempt: 1, worker: 'transcoder-1', progress: 0.5, at: '2026-11-29T12:00:01.000Z' };
  const type = options.type ?? EventTypes.StepStartedV1;
  return {
    key: Buffer.from(key),
    value: Buffer.from(JSON.stringify(type === EventTypes.StepProgressV1 ? progress : started)),
    offset: String(offset),
    timestamp: '0',
    attributes: 0,
    headers: {
      [MessageHeaders.eventId]: Buffer.from(options.id ?? `event-${offset}`),
      [MessageHeaders.eventType]: Buffer.from(type),
    },
  } as KafkaMessage;
}

function batchOf(offsets: Array<number | KafkaMessage>, partition = 2): { payload: EachBatchPayload; resolved: string[] } {
  const resolved: string[] = [];
  const payload = {
    batch: { topic: 'job.events', partition, messages: offsets.map((o) => (typeof o === 'number' ? message(o) : o)) },
    resolveOffset: (offset: string) => resolved.push(offset),
    heartbeat: async () => undefined,
    // Recorded in the same list, so a test sees that offsets are committed only once resolved.
    commitOffsetsIfNecessary: async () => resolved.push('commit?'),
    isRunning: () => true,
    isStale: () => false,
  } as unknown as EachBatchPayload;
  return { payload, resolved };
}

function consumer(
  db: RecordingDatabase,
  handler: EventHandler,
  maxBatchSize?: number,
  beforeHandling?: EventConsumerOptions['beforeHandling'],
  keyConcurrency?: number,
): { onBatch: (p: EachBatchPayload) => Promise<void>; stats: EventConsumer['stats'] } {
  const instance = new EventConsumer({
    kafka: {} as Kafka,
    groupId: 'longhaul.test',
    topics: ['job.events'],
    dataSource: db.dataSource,
    schema: 'test',
    handlers: { [EventTypes.StepStartedV1]: handler },
    logger: silent,
    maxBatchSize,
    beforeHandling,
    keyConcurrency,
  });
  const onBatch = (instance as unknown as { onBatch: (p: EachBatchPayload) => Promise<void> }).onBatch.bind(instance);
  return { onBatch, stats: instance.stats };
}

describe('EventConsumer batches', () => {
  it('handles a batch in ONE transaction, an inbox row per event, and resolves its offsets after the commit', async () => {
    const db = new RecordingDatabase();
    const handled: string[] = [];
    const { onBatch, stats } = consumer(db, async (sql, event) => {
      handled.push(event.id);
      await sql.execute('-- effect', [event.id]);
    });
    const { payload, resolved } = batchOf([10, 11, 12]);
    await onBatch(payload);
    expect(db.transactions).toEqual([{ statements: ['inbox event-10,event-11,event-12', '-- effect', '-- effect', '-- effect'], outcome: 'commit' }]);
    expect(handled).toEqual(['event-10', 'event-11', 'event-12']);
    expect(resolved).toEqual(['12', 'commit?']);
    expect(stats.handled).toBe(3);
  });

  it('splits a large fetch into transactions of at most maxBatchSize events, in order', async () => {
    const db = new RecordingDatabase();
    const { onBatch } = consumer(db, async () => undefined, 2);
    const { payload, resolved } = batchOf([1, 2, 3, 4, 5]);
    await onBatch(payload);
    expect(db.transactions.map((t) => t.statements)).toEqual([['inbox event-1,event-2'], ['inbox event-3,event-4'], ['inbox event-5']]);
    expect(resolved).toEqual(['2', 'commit?', '4', 'commit?', '5', '5', 'commit?']);
  });

  it('rolls a failed batch back whole, then handles its events one by one: the good ones commit, the bad one is redelivered', async () => {
    const db = new RecordingDatabase();
    const { onBatch, stats } = consumer(db, async (sql, event) => {
      if (event.id === 'event-21') throw new Error('handler broke');
      await sql.execute('-- effect', [event.id]);
    });
    const { payload, resolved } = batchOf([20, 21, 22]);
    await expect(onBatch(payload)).rejects.toThrow('handler broke');
    expect(db.transactions.map((t) => t.outcome)).toEqual(['rollback', 'commit', 'rollback']);
    expect(db.transactions[1]!.statements).toEqual(['inbox event-20', '-- effect']);
    // Only the event that committed alone is resolved; 21 and 22 come again.
    expect(resolved).toEqual(['20']);
    expect(stats.handled).toBe(1);
  });

  it('counts an event already in the inbox as a duplicate without running its handler', async () => {
    const db = new RecordingDatabase();
    let runs = 0;
    const { onBatch, stats } = consumer(db, async () => {
      runs += 1;
    });
    await onBatch(batchOf([30]).payload);
    await onBatch(batchOf([30, 31]).payload);
    expect(runs).toBe(2);
    expect(stats.duplicatesSuppressed).toBe(1);
  });

  it('neither parses nor writes events without a handler, and opens no transaction when a batch holds only those', async () => {
    const db = new RecordingDatabase();
    const handled: string[] = [];
    const { onBatch, stats } = consumer(db, async (sql, event) => {
      handled.push(event.id);
      await sql.execute('-- effect', [event.id]);
    });
    const progress = (offset: number) => message(offset, { type: EventTypes.StepProgressV1 });
    const only = batchOf([progress(40), progress(41)]);
    await onBatch(only.payload);
    expect(db.transactions).toEqual([]);
    expect(only.resolved).toEqual(['41', 'commit?']);
    const mixed = batchOf([progress(42), 43, progress(44)]);
    await onBatch(mixed.payload);
    expect(db.transactions).toEqual([{ statements: ['inbox event-43', '-- effect'], outcome: 'commit' }]);
    expect(mixed.resolved.slice(-2)).toEqual(['44', 'commit?']);
    expect(handled).toEqual(['event-43']);
    expect(stats.skipped).toBe(4);
  });

  it('handles an id that comes twice in one batch once', async () => {
    const db = new RecordingDatabase();
    let runs = 0;
    const { onBatch, stats } = consumer(db, async () => {
      runs += 1;
    });
    await onBatch(batchOf([50, message(51, { id: 'event-50' }), 52]).payload);
    expect(runs).toBe(2);
    expect(stats).toMatchObject({ handled: 2, duplicatesSuppressed: 1 });
  });

  it('runs beforeHandling once per transaction, issued behind the inbox, with the events of a handled type', async () => {
    const db = new RecordingDatabase();
    const seen: string[][] = [];
    const { onBatch } = consumer(
      db,
      async (sql) => {
        await sql.execute('-- effect');
      },
      undefined,
      async (sql, events) => {
        seen.push(events.map((e) => e.id));
        await sql.execute('-- lock');
      },
    );
    await onBatch(batchOf([60]).payload);
    await onBatch(batchOf([60, 61, 62]).payload);
    // event-60 is a duplicate the second time: it is locked with the rest, and not handled.
    expect(seen).toEqual([['event-60'], ['event-60', 'event-61', 'event-62']]);
    expect(db.transactions[1]!.statements).toEqual(['inbox event-60,event-61,event-62', '-- lock', '-- effect', '-- effect']);
  });

  describe('across the partitions of one fetch', () => {
    it("handles the batches kafkajs hands over at once in ONE transaction, and resolves each partition's offsets after it", async () => {
      const db = new RecordingDatabase();
      const { onBatch, stats } = consumer(db, async (sql, event) => {
        await sql.execute('-- effect', [event.id]);
      });
      const first = batchOf([100, 101], 0);
      const second = batchOf([message(200, { id: 'event-200', key: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c99' })], 4);
      await Promise.all([onBatch(first.payload), onBatch(second.payload)]);
      expect(db.transactions).toEqual([{ statements: ['inbox event-100,event-101,event-200', '-- effect', '-- effect', '-- effect'], outcome: 'commit' }]);
      expect(first.resolved).toEqual(['101', 'commit?']);
      expect(second.resolved).toEqual(['200', 'commit?']);
      expect(stats.handled).toBe(3);
    });

    it('lets each partition handle its batch itself when the joint transaction fails', async () => {
      const db = new RecordingDatabase();
      const { onBatch } = consumer(db, async (sql, event) => {
        if (event.id === 'event-301') throw new Error('handler broke');
        await sql.execute('-- effect', [event.id]);
      });
      const good = batchOf([300], 0);
      const bad = batchOf([message(301, { id: 'event-301', key: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c99' })], 4);
      const outcomes = await Promise.allSettled([onBatch(good.payload), onBatch(bad.payload)]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
      // The joint transaction rolls back; then each partition's own, side by side.
      expect(db.transactions[0]!.outcome).toBe('rollback');
      expect(db.transactions.slice(1).filter((t) => t.outcome === 'commit').map((t) => t.statements)).toEqual([['inbox event-300', '-- effect']]);
      expect(db.transactions.slice(1).filter((t) => t.outcome === 'rollback')).toHaveLength(1);
      expect(good.resolved).toEqual(['300', '300', 'commit?']);
      expect(bad.resolved).toEqual([]);
    });
  });

  describe('with keyConcurrency', () => {
    // Two jobs whose keys fall in different lanes of two.
    const jobA = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c01';
    const jobB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c02';
    const of = (offset: number, key: string) => message(offset, { key });

    it('handles the jobs of a chunk in transactions of their own, at once, each job in order, and resolves the chunk after all', async () => {
      expect(laneOf(jobA, 2)).not.toBe(laneOf(jobB, 2));
      const db = new RecordingDatabase();
      const order: string[] = [];
      let inFlight = 0;
      let most = 0;
      const { onBatch } = consumer(
        db,
        async (sql, event) => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(`${event.key.slice(-2)}:${event.id}`);
          inFlight -= 1;
          await sql.execute('-- effect');
        },
        undefined,
        undefined,
        2,
      );
      const { payload, resolved } = batchOf([of(70, jobA), of(71, jobB), of(72, jobA), of(73, jobB)]);
      await onBatch(payload);
      expect(most).toBe(2);
      expect(db.transactions).toHaveLength(2);
      expect(order.filter((o) => o.startsWith('01'))).toEqual(['01:event-70', '01:event-72']);
      expect(order.filter((o) => o.startsWith('02'))).toEqual(['02:event-71', '02:event-73']);
      expect(resolved).toEqual(['73', 'commit?']);
    });

    it('resolves nothing of a chunk one of whose lanes must be redelivered, and lets the other commit', async () => {
      const db = new RecordingDatabase();
      const { onBatch } = consumer(
        db,
        async (sql, event) => {
          if (event.id === 'event-81') throw new Error('handler broke');
          await sql.execute('-- effect');
        },
        undefined,
        undefined,
        2,
      );
      const { payload, resolved } = batchOf([of(80, jobA), of(81, jobB)]);
      await expect(onBatch(payload)).rejects.toThrow('handler broke');
      expect(resolved).toEqual([]);
      expect(db.transactions.filter((t) => t.outcome === 'commit').map((t) => t.statements)).toEqual([['inbox event-80', '-- effect']]);
    });
  });
});

