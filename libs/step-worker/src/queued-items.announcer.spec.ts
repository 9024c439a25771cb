import type { DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { WorkQueueRepository } from '@longhaul/work-queue';
import { announcePassMs, QueuedItemsAnnouncer } from './queued-items.announcer';
import { StepResultPublisher } from './step-result.publisher';

const logger = { child: () => logger, info: jest.fn(), debug: jest.fn(), warn: jest.fn() } as unknown as Logger;

describe('announcePassMs', () => {
  it('runs the pass every half of the delay, never more often than every 100 ms nor less than every 5 s', () => {
    expect(announcePassMs(300)).toBe(150);
    expect(announcePassMs(10_000)).toBe(5_000);
    expect(announcePassMs(60_000)).toBe(5_000);
    expect(announcePassMs(50)).toBe(100);
  });
});

describe('QueuedItemsAnnouncer', () => {
  it('refuses a delay of 0: then the request handler announces each item as it is queued, and no pass runs', () => {
    const options = {
      dataSource: {} as DataSource,
      queue: new WorkQueueRepository('transcoder'),
      publisher: new StepResultPublisher('transcoder', 'transcoder-w1'),
      lane: 'fast' as const,
      logger,
    };
    expect(() => new QueuedItemsAnnouncer({ ...options, reportMs: 0 })).toThrow(RangeError);
    expect(() => new QueuedItemsAnnouncer({ ...options, reportMs: 10_000 })).not.toThrow();
  });
});
