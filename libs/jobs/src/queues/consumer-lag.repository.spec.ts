import type { Kafka } from '@longhaul/messaging';
import type { Logger } from '@longhaul/telemetry';
import { ConsumerLagRepository } from './consumer-lag.repository';

const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const never = () => new Promise<never>(() => undefined);

interface FakeAdmin {
  connect: () => Promise<void>;
  disconnect: jest.Mock;
  fetchTopicOffsets: (topic: string) => Promise<Array<{ partition: number; offset: string; high: string; low: string }>>;
  fetchOffsets: (o: { groupId: string; topics: string[] }) => Promise<Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>>;
}

function kafkaWith(make: () => FakeAdmin): { kafka: Kafka; admins: FakeAdmin[] } {
  const admins: FakeAdmin[] = [];
  const kafka = { admin: () => { const a = make(); admins.push(a); return a; } } as unknown as Kafka;
  return { kafka, admins };
}

const healthy = (): FakeAdmin => ({
  connect: async () => undefined,
  disconnect: jest.fn(async () => undefined),
  fetchTopicOffsets: async (topic) => [
    { partition: 0, offset: '10', high: '10', low: '0' },
    { partition: 1, offset: topic === 'thumbnail.requests' ? '4' : '6', high: topic === 'thumbnail.requests' ? '4' : '6', low: '0' },
  ],
  fetchOffsets: async ({ groupId, topics }) => [
    { topic: topics[0]!, partitions: groupId === 'longhaul.transcoder.slow' ? [{ partition: 0, offset: '-1' }, { partition: 1, offset: '-1' }] : [{ partition: 0, offset: '8' }, { partition: 1, offset: '6' }] },
  ],
});

describe('ConsumerLagRepository', () => {
  it('sums the lag of every group of a lane', async () => {
    const { kafka } = kafkaWith(healthy);
    const repo = new ConsumerLagRepository(kafka, silent, 500);
    // fast: transcoder.fast 2 + 0, thumbnailer 2 + 0 (high 4 on p1, committed 6 → 0); slow: nothing committed → 10 + 6
    expect(await repo.read()).toEqual({ fast: 4, slow: 16 });
    await repo.close();
  });

  it('answers unknown within its timeout when the broker never answers, and reconnects next time', async () => {
    const { kafka, admins } = kafkaWith(() => ({ ...healthy(), connect: never }));
    const repo = new ConsumerLagRepository(kafka, silent, 50);
    const started = Date.now();
    expect(await repo.read()).toEqual({ fast: null, slow: null });
    expect(Date.now() - started).toBeLessThan(1_000);
    await repo.read();
    expect(admins).toHaveLength(2);
  });

  it('leaves a lane unknown when one of its groups cannot be read', async () => {
    const { kafka } = kafkaWith(() => ({
      ...healthy(),
      fetchTopicOffsets: async (topic) => {
        if (topic === 'thumbnail.requests') throw new Error('UNKNOWN_TOPIC_OR_PARTITION');
        return healthy().fetchTopicOffsets(topic);
      },
    }));
    const repo = new ConsumerLagRepository(kafka, silent, 500);
    expect(await repo.read()).toEqual({ fast: null, slow: 16 });
    await repo.close();
  });

  it('disconnects on close and answers unknown afterwards', async () => {
    const { kafka, admins } = kafkaWith(healthy);
    const repo = new ConsumerLagRepository(kafka, silent, 500);
    await repo.read();
    await repo.close();
    expect(admins[0]!.disconnect).toHaveBeenCalled();
    expect(await repo.read()).toEqual({ fast: null, slow: null });
  });
});
