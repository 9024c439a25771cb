import type { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { EventTypes, MessageHeaders } from '@longhaul/contracts';
import type { DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { EventConsumer, type EventHandler } from './event-consumer';

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
      return {
        connect: async () => undefined,
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
            const id = params[0] as string;
            current?.statements.push(`inbox ${id}`);
            const fresh = !this.seen.has(id) && !current?.pending.has(id);
            current?.pending.add(id);
            return { records: [], affected: fresh ? 1 : 0 };
          }
          current?.statements.push(text);
          return { records: [], affected: 1 };
        },
      };
    },
  } as unknown as DataSource;
}

const silent: Logger = (() => {
  const logger: Record<string, unknown> = { child: () => logger };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) logger[level] = () => undefined;
  return logger as unknown as Logger;
})();

const jobId = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';

function message(offset: number): KafkaMessage {
  const value = { jobId, step: 'transcode', attempt: 1, worker: 'transcoder-1', startedAt: '2026-11-29T12:00:00.000Z' };
  return {
    key: Buffer.from(jobId),
    value: Buffer.from(JSON.stringify(value)),
    offset: String(offset),
    timestamp: '0',
    attributes: 0,
    headers: {
      [MessageHeaders.eventId]: Buffer.from(`event-${offset}`),
      [MessageHeaders.eventType]: Buffer.from(EventTypes.StepStartedV1),
    },
  } as KafkaMessage;
}

function batchOf(offsets: number[]): { payload: EachBatchPayload; resolved: string[] } {
  const resolved: string[] = [];
  const payload = {
    batch: { topic: 'job.events', partition: 2, messages: offsets.map(message) },
    resolveOffset: (offset: string) => resolved.push(offset),
    heartbeat: async () => undefined,
    isRunning: () => true,
    isStale: () => false,
  } as unknown as EachBatchPayload;
  return { payload, resolved };
}

function consumer(db: RecordingDatabase, handler: EventHandler, maxBatchSize?: number): { onBatch: (p: EachBatchPayload) => Promise<void>; stats: EventConsumer['stats'] } {
  const instance = new EventConsumer({
    kafka: {} as Kafka,
    groupId: 'longhaul.test',
    topics: ['job.events'],
    dataSource: db.dataSource,
    schema: 'test',
    handlers: { [EventTypes.StepStartedV1]: handler },
    logger: silent,
    maxBatchSize,
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
    expect(db.transactions).toEqual([
      { statements: ['inbox event-10', '-- effect', 'inbox event-11', '-- effect', 'inbox event-12', '-- effect'], outcome: 'commit' },
    ]);
    expect(handled).toEqual(['event-10', 'event-11', 'event-12']);
    expect(resolved).toEqual(['12']);
    expect(stats.handled).toBe(3);
  });

  it('splits a large fetch into transactions of at most maxBatchSize events, in order', async () => {
    const db = new RecordingDatabase();
    const { onBatch } = consumer(db, async () => undefined, 2);
    const { payload, resolved } = batchOf([1, 2, 3, 4, 5]);
    await onBatch(payload);
    expect(db.transactions.map((t) => t.statements.length)).toEqual([2, 2, 1]);
    expect(resolved).toEqual(['2', '4', '5', '5']);
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
});
