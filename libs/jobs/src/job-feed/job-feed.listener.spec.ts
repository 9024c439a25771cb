import { EventEmitter } from 'node:events';
import type { Logger } from '@longhaul/telemetry';
import { JobFeedListener, reconnectDelay, type FeedWaker, type NotificationClient } from './job-feed.listener';
import { JOB_FEED_CHANNEL } from './job-feed.policy';

const JOB_A = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const JOB_B = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7c';
const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;

/** A `pg` client stand-in: connects (or fails to), records queries, emits what the tests say. */
class FakeClient extends EventEmitter implements NotificationClient {
  queries: string[] = [];
  ended = false;

  constructor(private readonly failConnect: boolean) {
    super();
  }

  async connect(): Promise<void> {
    if (this.failConnect) throw new Error('connection refused');
  }

  async query(text: string): Promise<void> {
    this.queries.push(text);
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.emit('end');
  }

  notify(payload: string, channel = JOB_FEED_CHANNEL): void {
    this.emit('notification', { channel, payload });
  }
}

function recorder(): FeedWaker & { wakes: Array<number | undefined> } {
  const wakes: Array<number | undefined> = [];
  return { wakes, wake: (seq?: number) => void wakes.push(seq) };
}

function setUp(failures: boolean[] = []) {
  const clients: FakeClient[] = [];
  const listener = new JobFeedListener({
    createClient: () => {
      const client = new FakeClient(failures[clients.length] ?? false);
      clients.push(client);
      return client;
    },
    logger: silent,
    reconnectBaseMs: 100,
    reconnectCapMs: 1000,
  });
  return { listener, clients };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('JobFeedListener', () => {
  afterEach(() => jest.useRealTimers());

  it('listens on the feed channel and wakes only the subscribers of the job a notification names', async () => {
    const { listener, clients } = setUp();
    const a1 = recorder();
    const a2 = recorder();
    const b = recorder();
    listener.subscribe(JOB_A, a1);
    listener.subscribe(JOB_A, a2);
    listener.subscribe(JOB_B, b);
    listener.start();
    await flush();
    expect(clients[0]!.queries).toEqual([`LISTEN ${JOB_FEED_CHANNEL}`]);
    expect(listener.listening).toBe(true);
    // Connecting wakes everyone once: nothing committed before it was announced here.
    expect([a1.wakes, a2.wakes, b.wakes]).toEqual([[undefined], [undefined], [undefined]]);

    clients[0]!.notify(`${JOB_A}:7`);
    clients[0]!.notify(`${JOB_B}:2`);
    clients[0]!.notify('garbage');
    clients[0]!.notify(`${JOB_A}:8`, 'another_channel');
    expect(a1.wakes).toEqual([undefined, 7]);
    expect(a2.wakes).toEqual([undefined, 7]);
    expect(b.wakes).toEqual([undefined, 2]);
    await listener.stop();
  });

  it('wakes the subscribers of every entry a packed notification carries, skipping what does not parse', async () => {
    const { listener, clients } = setUp();
    const a = recorder();
    const b = recorder();
    listener.subscribe(JOB_A, a);
    listener.subscribe(JOB_B, b);
    listener.start();
    await flush();
    clients[0]!.notify(`${JOB_A}:3\n${JOB_B}:1\ngarbage\n${JOB_A}:4`);
    expect(a.wakes).toEqual([undefined, 3, 4]);
    expect(b.wakes).toEqual([undefined, 1]);
    await listener.stop();
  });

  it('stops waking a subscriber once it unsubscribes', async () => {
    const { listener, clients } = setUp();
    const a = recorder();
    const unsubscribe = listener.subscribe(JOB_A, a);
    listener.start();
    await flush();
    unsubscribe();
    clients[0]!.notify(`${JOB_A}:3`);
    expect(a.wakes).toEqual([undefined]);
    expect(listener.subscriberCount).toBe(0);
    await listener.stop();
  });

  it('reconnects with growing delays after losing its connection, then wakes every subscriber', async () => {
    jest.useFakeTimers();
    const { listener, clients } = setUp([false, true, false]);
    const a = recorder();
    listener.subscribe(JOB_A, a);
    listener.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(a.wakes).toEqual([undefined]);

    clients[0]!.emit('error', new Error('terminating connection due to administrator command'));
    expect(listener.listening).toBe(false);
    await jest.advanceTimersByTimeAsync(99);
    expect(clients[0]!.ended).toBe(true);
    expect(clients).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    // The second attempt fails; the third comes after twice the delay.
    expect(clients).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(199);
    expect(clients).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(clients).toHaveLength(3);
    expect(listener.listening).toBe(true);
    expect(clients[2]!.queries).toEqual([`LISTEN ${JOB_FEED_CHANNEL}`]);
    expect(a.wakes).toEqual([undefined, undefined]);

    clients[2]!.notify(`${JOB_A}:4`);
    expect(a.wakes).toEqual([undefined, undefined, 4]);
    await listener.stop();
  });

  it('closes its connection on stop and does not reconnect', async () => {
    jest.useFakeTimers();
    const { listener, clients } = setUp();
    listener.start();
    await jest.advanceTimersByTimeAsync(0);
    await listener.stop();
    expect(clients[0]!.ended).toBe(true);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(clients).toHaveLength(1);
    expect(listener.listening).toBe(false);
  });
});

describe('reconnectDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([0, 1, 2, 3, 10, 100].map((n) => reconnectDelay(n, 250, 10_000))).toEqual([250, 500, 1000, 2000, 10_000, 10_000]);
  });
});
