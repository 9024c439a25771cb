import { withPgClient } from '@longhaul/persistence/testing';
import { Registry } from 'prom-client';
import type { DataSource } from '@longhaul/persistence';
import { workQueueMetrics } from './work-queue.metrics';
import { WorkQueueSampler } from './work-queue.sampler';

function answering(rows: Array<Record<string, unknown>>): DataSource {
  const runner = {
    connect: async () => undefined,
    startTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    isTransactionActive: false,
    release: async () => undefined,
    query: async (text: string) => ({ records: text.startsWith('SET LOCAL') ? [] : rows }),
  };
  return { createQueryRunner: () => withPgClient(runner) } as unknown as DataSource;
}

describe('WorkQueueSampler', () => {
  it("sets depth, running and the oldest queued item's age of each lane served, 0 for an idle lane", async () => {
    const registry = new Registry();
    const rows = [{ lane: 'fast', queued: '3', running: '2', oldest_queued_s: 12.5 }];
    await new WorkQueueSampler(answering(rows), 'transcoder', ['fast', 'slow'], workQueueMetrics(registry)).sample();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_work_queue_depth{lane="fast"} 3');
    expect(text).toContain('longhaul_work_queue_running{lane="fast"} 2');
    expect(text).toContain('longhaul_work_queue_oldest_age_seconds{lane="fast"} 12.5');
    expect(text).toContain('longhaul_work_queue_depth{lane="slow"} 0');
    expect(text).toContain('longhaul_work_queue_oldest_age_seconds{lane="slow"} 0');
  });

  it('reports only the lanes the worker serves, and drops them all on clear', async () => {
    const registry = new Registry();
    const sampler = new WorkQueueSampler(answering([]), 'thumbnailer', ['fast'], workQueueMetrics(registry));
    await sampler.sample();
    expect(await registry.metrics()).not.toContain('lane="slow"');
    sampler.clear();
    expect(await registry.metrics()).not.toContain('longhaul_work_queue_depth{');
  });
});
