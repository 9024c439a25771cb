import { withPgClient } from '@longhaul/persistence/testing';
import type { DataSource } from '@longhaul/persistence';
import { InboxPruner } from './inbox.pruner';
import type { KafkaAdmin, KafkaAdminSession } from './kafka-admin.session';

/** Topics as Kafka would answer for them: per partition, the low watermark and the first offset at the instant asked. */
function fakeKafka(topics: Record<string, Array<{ low: number; fromTimestamp: number }>>, asked: number[] = []): KafkaAdminSession {
  const admin = {
    listTopics: async () => Object.keys(topics),
    fetchTopicOffsets: async (topic: string) =>
      topics[topic]!.map((p, partition) => ({ partition, low: String(p.low), high: String(p.fromTimestamp + 5), offset: String(p.fromTimestamp + 5) })),
    fetchTopicOffsetsByTimestamp: async (topic: string, at: number) => {
      asked.push(at);
      return topics[topic]!.map((p, partition) => ({ partition, offset: String(p.fromTimestamp) }));
    },
  } as unknown as KafkaAdmin;
  return { run: <T>(work: (a: KafkaAdmin) => Promise<T>) => work(admin) } as unknown as KafkaAdminSession;
}

/** A data source whose deletes answer `deletes` in turn, recording each statement's parameters. */
function fakeDatabase(deletes: number[], seen: unknown[][]): DataSource {
  const runner = {
    connect: async () => undefined,
    release: async () => undefined,
    query: async (_text: string, params: unknown[]) => {
      seen.push(params);
      return { records: [], affected: deletes.shift() ?? 0 };
    },
  };
  return { createQueryRunner: () => withPgClient(runner) } as unknown as DataSource;
}

const NOW = Date.UTC(2025, 0, 3);
const options = { schema: 'notifier', retentionMs: 2 * 86_400_000, batchSize: 3, now: () => NOW };

describe('InboxPruner', () => {
  it('drains each topic Kafka no longer holds old messages of, in batches, up to the cutoff', async () => {
    const seen: unknown[][] = [];
    const asked: number[] = [];
    const kafka = fakeKafka({ 'job.lifecycle': [{ low: 4, fromTimestamp: 4 }] }, asked);
    const pruner = new InboxPruner(fakeDatabase([3, 1, 0], seen), kafka, { ...options, topics: ['job.lifecycle', 'job.control'] });
    expect(await pruner.prune()).toEqual({ deleted: 4, keptForTopics: [] });
    // job.lifecycle: 3 then 1 (short); job.control does not exist in Kafka, so nothing can come back: one empty batch.
    expect(seen.map((p) => p[0])).toEqual(['job.lifecycle', 'job.lifecycle', 'job.control']);
    expect(seen[0]).toEqual(['job.lifecycle', new Date(Date.UTC(2025, 0, 1)), 3]);
    expect(asked[0]).toBeGreaterThan(Date.UTC(2025, 0, 1));
  });

  it('keeps the rows of a topic that still holds a message older than the cutoff', async () => {
    const seen: unknown[][] = [];
    const kafka = fakeKafka({ 'job.lifecycle': [{ low: 0, fromTimestamp: 7 }], 'job.events': [{ low: 2, fromTimestamp: 2 }] });
    const pruner = new InboxPruner(fakeDatabase([2], seen), kafka, { ...options, topics: ['job.lifecycle', 'job.events'] });
    expect(await pruner.prune()).toEqual({ deleted: 2, keptForTopics: ['job.lifecycle'] });
    expect(seen.map((p) => p[0])).toEqual(['job.events']);
  });

  it('lets a Kafka failure fail the pass before anything is deleted', async () => {
    const seen: unknown[][] = [];
    const kafka = { run: async () => Promise.reject(new Error('Kafka did not answer')) } as unknown as KafkaAdminSession;
    const pruner = new InboxPruner(fakeDatabase([], seen), kafka, { ...options, topics: ['job.events'] });
    await expect(pruner.prune()).rejects.toThrow('Kafka did not answer');
    expect(seen).toHaveLength(0);
  });
});
