import { Registry } from 'prom-client';
import type { LagSource } from './consumer-lag.reader';
import { ConsumerLagSampler } from './consumer-lag.sampler';
import { MessagingMetrics } from './messaging.metrics';

const source: LagSource = {
  fetchOffsets: async ({ groupId, topics }) =>
    topics.map((topic) => ({ topic, partitions: groupId === 'longhaul.new' ? [] : [{ partition: 0, offset: '7' }, { partition: 1, offset: '-1' }] })),
  fetchTopicOffsets: async () => [
    { partition: 0, high: '10', low: '0' },
    { partition: 1, high: '4', low: '1' },
  ],
};

const runner = (admin: LagSource) => ({ run: <T>(work: (a: LagSource) => Promise<T>) => work(admin) });

describe('ConsumerLagSampler', () => {
  it("sets the lag of each partition of each of the process's groups", async () => {
    const registry = new Registry();
    const metrics = new MessagingMetrics(registry);
    metrics.consuming('longhaul.api.saga', ['job.events']);
    metrics.consuming('longhaul.new', ['job.lifecycle']);
    await new ConsumerLagSampler(runner(source), metrics).sample();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_consumer_lag_messages{group="longhaul.api.saga",topic="job.events",partition="0"} 3');
    expect(text).toContain('longhaul_consumer_lag_messages{group="longhaul.api.saga",topic="job.events",partition="1"} 3');
    // A group that committed nothing will read from the low watermark.
    expect(text).toContain('longhaul_consumer_lag_messages{group="longhaul.new",topic="job.lifecycle",partition="0"} 10');
  });

  it('keeps the last full sample when a read fails, and drops it all on clear', async () => {
    const registry = new Registry();
    const metrics = new MessagingMetrics(registry);
    metrics.consuming('longhaul.api.saga', ['job.events']);
    const sampler = new ConsumerLagSampler(runner(source), metrics);
    await sampler.sample();
    const failing = new ConsumerLagSampler(runner({ ...source, fetchTopicOffsets: async () => Promise.reject(new Error('down')) }), metrics);
    await expect(failing.sample()).rejects.toThrow('down');
    expect(await registry.metrics()).toContain('partition="0"} 3');
    failing.clear();
    expect(await registry.metrics()).not.toContain('longhaul_consumer_lag_messages{');
  });

  it('does not ask Kafka while the process consumes nothing', async () => {
    const registry = new Registry();
    const metrics = new MessagingMetrics(registry);
    const run = jest.fn();
    await new ConsumerLagSampler({ run } as never, metrics).sample();
    expect(run).not.toHaveBeenCalled();
  });

  it('forgets a group whose consumer stopped', async () => {
    const registry = new Registry();
    const metrics = new MessagingMetrics(registry);
    metrics.consuming('longhaul.api.saga', ['job.events']);
    metrics.stopped('longhaul.api.saga');
    await new ConsumerLagSampler(runner(source), metrics).sample();
    expect(await registry.metrics()).not.toContain('longhaul_consumer_lag_messages{');
  });
});
