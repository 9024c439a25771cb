import type { JobFeedKind } from '@longhaul/contracts';
import type { FeedEntry } from './job-feed.policy';
import { JobFeedSubscriber, type FeedSink, type FeedSource } from './job-feed.subscriber';

const JOB = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';

function entry(seq: number, kind: JobFeedKind = 'step.progress', fields: Record<string, unknown> = {}): FeedEntry {
  return { seq, kind, event: { kind, jobId: JOB, seq, ...fields } };
}
const status = (seq: number, value: string) => entry(seq, 'job.status', { status: value });

/** A feed table in memory; reads can be held open to let wakes arrive mid-read. */
class FakeSource implements FeedSource {
  entries: FeedEntry[] = [];
  reads: number[] = [];
  failNext = false;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;

  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate?.();
    this.gate = null;
  }

  async after(jobId: string, after: number, limit: number): Promise<FeedEntry[]> {
    expect(jobId).toBe(JOB);
    this.reads.push(after);
    // What the database holds when the statement runs, not when it returns.
    const snapshot = this.entries.filter((e) => e.seq > after).sort((a, b) => a.seq - b.seq).slice(0, limit);
    if (this.gate) await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database is down');
    }
    return snapshot;
  }
}

class FakeSink implements FeedSink {
  frames: string[] = [];
  ended = 0;

  async send(chunk: string): Promise<void> {
    this.frames.push(chunk);
  }

  end(): void {
    this.ended++;
  }

  get ids(): number[] {
    return this.frames.map((f) => Number(/^id: (\d+)/.exec(f)![1]));
  }
}

function setUp(after = 0, batchSize = 100) {
  const source = new FakeSource();
  const sink = new FakeSink();
  const errors: unknown[] = [];
  let ends = 0;
  const subscriber = new JobFeedSubscriber(JOB, after, source, sink, {
    batchSize,
    onReadError: (error) => errors.push(error),
    onEnd: () => ends++,
  });
  return { source, sink, subscriber, errors, ends: () => ends };
}

describe('JobFeedSubscriber', () => {
  it('replays the feed from the start to the terminal status, then ends the stream once', async () => {
    const { source, sink, subscriber, ends } = setUp();
    source.entries = [status(1, 'pending'), entry(2, 'step.status'), status(3, 'running'), entry(4), status(5, 'completed')];
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3, 4, 5]);
    expect(sink.frames[0]).toBe(`id: 1\nevent: job.status\ndata: {"kind":"job.status","jobId":"${JOB}","seq":1,"status":"pending"}\n\n`);
    expect(sink.ended).toBe(1);
    expect(ends()).toBe(1);
    expect(subscriber.isEnded).toBe(true);
    subscriber.wake();
    subscriber.end();
    await subscriber.settled();
    expect(source.reads).toEqual([0]);
    expect(sink.ended).toBe(1);
    expect(ends()).toBe(1);
  });

  it('resumes after the given position with exactly the entries after it', async () => {
    const { source, sink, subscriber } = setUp(3);
    source.entries = [status(1, 'pending'), entry(2), entry(3), entry(4), status(5, 'failed')];
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([4, 5]);
    expect(sink.ended).toBe(1);
  });

  it('reads again after each notification and sends only what is new', async () => {
    const { source, sink, subscriber } = setUp();
    source.entries = [status(1, 'pending')];
    subscriber.wake();
    await subscriber.settled();
    source.entries.push(entry(2), entry(3));
    subscriber.wake(2);
    await subscriber.settled();
    // A notification for an entry already sent (late, or repeated) costs no read.
    subscriber.wake(3);
    subscriber.wake(2);
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3]);
    expect(source.reads).toEqual([0, 1]);
    expect(sink.ended).toBe(0);
  });

  it('folds wakes that arrive during a read into one more read, missing nothing', async () => {
    const { source, sink, subscriber } = setUp();
    source.entries = [status(1, 'pending')];
    source.hold();
    subscriber.wake();
    // Committed after the read's snapshot: its notifications arrive while the read is in flight.
    source.entries.push(entry(2), entry(3));
    subscriber.wake(2);
    subscriber.wake(3);
    source.release();
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3]);
    expect(source.reads).toEqual([0, 1]);
  });

  it('delivers a lost notification at the next plain wake (the safety re-read)', async () => {
    const { source, sink, subscriber } = setUp();
    source.entries = [status(1, 'pending'), entry(2)];
    subscriber.wake();
    await subscriber.settled();
    source.entries.push(entry(3));
    // No notification for 3.
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3]);
  });

  it('pages through a long feed in batches and ends after a terminal entry that closed a full batch', async () => {
    const { source, sink, subscriber } = setUp(0, 2);
    source.entries = [status(1, 'pending'), entry(2), entry(3), status(4, 'cancelled')];
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3, 4]);
    expect(source.reads).toEqual([0, 2, 4]);
    expect(sink.ended).toBe(1);
  });

  it('keeps streaming when a terminal status is followed by newer entries (a replay reopened the job)', async () => {
    const { source, sink, subscriber } = setUp();
    source.entries = [status(1, 'pending'), status(2, 'failed'), entry(3, 'step.status'), status(4, 'running')];
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([1, 2, 3, 4]);
    expect(sink.ended).toBe(0);
    source.entries.push(status(5, 'completed'));
    subscriber.wake(5);
    await subscriber.settled();
    expect(sink.ended).toBe(1);
  });

  it('reports a failed read without retrying at once, and recovers at the next wake', async () => {
    const { source, sink, subscriber, errors } = setUp();
    source.entries = [status(1, 'pending')];
    source.failNext = true;
    subscriber.wake();
    await subscriber.settled();
    expect(errors).toHaveLength(1);
    expect(source.reads).toEqual([0]);
    expect(sink.frames).toEqual([]);
    subscriber.wake();
    await subscriber.settled();
    expect(sink.ids).toEqual([1]);
  });

  it('stops sending as soon as it is ended mid-read (the client left)', async () => {
    const { source, sink, subscriber } = setUp();
    source.entries = [status(1, 'pending'), entry(2)];
    source.hold();
    subscriber.wake();
    subscriber.end();
    source.release();
    await subscriber.settled();
    expect(sink.frames).toEqual([]);
    expect(sink.ended).toBe(1);
  });
});
