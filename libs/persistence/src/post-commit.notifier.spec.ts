import { MAX_NOTIFICATION_BYTES, PostCommitNotifier, notificationPayloads, packNotifications } from './post-commit.notifier';

interface Sent {
  channels: string[];
  payloads: string[];
}

function recorder(options: { failFirst?: boolean } = {}): { sent: Sent[]; query: (text: string, params: unknown[]) => Promise<unknown> } {
  const sent: Sent[] = [];
  let calls = 0;
  return {
    sent,
    query: async (_text, params) => {
      calls += 1;
      if (options.failFirst && calls === 1) throw new Error('database unreachable');
      sent.push({ channels: params[0] as string[], payloads: params[1] as string[] });
    },
  };
}

describe('PostCommitNotifier', () => {
  it('sends what one turn of the event loop queued in one statement', async () => {
    const { sent, query } = recorder();
    const notifier = new PostCommitNotifier(query, { minIntervalMs: 0 });
    notifier.notify('feed', 'a:1');
    notifier.notify('feed', 'b:1');
    notifier.notify('other', 'c:2');
    expect(sent).toEqual([]);
    await notifier.flushed();
    expect(sent).toEqual([{ channels: ['feed', 'other'], payloads: ['a:1\nb:1', 'c:2'] }]);
  });

  it('sends what arrives during a send in the next statement, nothing twice', async () => {
    const sent: Sent[] = [];
    let release: () => void = () => undefined;
    const notifier = new PostCommitNotifier(async (_text, params) => {
      sent.push({ channels: params[0] as string[], payloads: params[1] as string[] });
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, { minIntervalMs: 0 });
    notifier.notify('feed', 'a:1');
    await new Promise((resolve) => setImmediate(resolve));
    notifier.notify('feed', 'a:2');
    notifier.notify('feed', 'a:3');
    release();
    await notifier.flushed();
    expect(sent.map((s) => s.payloads)).toEqual([['a:1'], ['a:2\na:3']]);
  });

  it('drops a batch whose send failed, reports it, and goes on sending', async () => {
    const { sent, query } = recorder({ failFirst: true });
    const errors: unknown[] = [];
    const notifier = new PostCommitNotifier(query, { minIntervalMs: 0, onError: (error) => errors.push(error) });
    notifier.notify('feed', 'a:1');
    await notifier.flushed();
    notifier.notify('feed', 'a:2');
    await notifier.flushed();
    expect(errors).toHaveLength(1);
    expect(sent.map((s) => s.payloads)).toEqual([['a:2']]);
  });

  it('waits out the interval after a send, and sends what queued meanwhile together', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const { sent, query } = recorder();
      const notifier = new PostCommitNotifier(query, { minIntervalMs: 20 });
      notifier.notify('feed', 'a:1');
      await jest.advanceTimersByTimeAsync(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(sent.map((s) => s.payloads)).toEqual([['a:1']]);
      notifier.notify('feed', 'a:2');
      await jest.advanceTimersByTimeAsync(5);
      notifier.notify('feed', 'b:1');
      await jest.advanceTimersByTimeAsync(10);
      expect(sent).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(5);
      await notifier.flushed();
      expect(sent.map((s) => s.payloads)).toEqual([['a:1'], ['a:2\nb:1']]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a payload it cannot carry and sends the rest', async () => {
    const { sent, query } = recorder();
    const errors: unknown[] = [];
    const notifier = new PostCommitNotifier(query, { minIntervalMs: 0, onError: (error) => errors.push(error) });
    notifier.notify('feed', 'a:1\nb:1');
    notifier.notify('feed', 'c:1');
    await notifier.flushed();
    expect(sent).toEqual([{ channels: ['feed'], payloads: ['c:1'] }]);
    expect(String(errors[0])).toContain('line break');
  });
});

describe('packNotifications', () => {
  it('packs a channel\'s payloads in order and starts a new notification before the size limit', () => {
    const payload = 'x'.repeat(1000);
    const channels = Array.from({ length: 10 }, () => 'feed');
    const packed = packNotifications([...channels, 'other'], [...channels.map(() => payload), 'o:1']);
    expect(packed.channels).toEqual(['feed', 'feed', 'other']);
    expect(packed.payloads.map((p) => Buffer.byteLength(p) <= MAX_NOTIFICATION_BYTES)).toEqual([true, true, true]);
    expect(packed.payloads.flatMap(notificationPayloads)).toEqual([...channels.map(() => payload), 'o:1']);
  });

  it('refuses a payload larger than a notification carries', () => {
    const refused: string[] = [];
    const packed = packNotifications(['feed', 'feed'], ['y'.repeat(MAX_NOTIFICATION_BYTES + 1), 'a:1'], (_payload, reason) => refused.push(reason));
    expect(packed.payloads).toEqual(['a:1']);
    expect(refused[0]).toContain('more than a notification carries');
  });
});

describe('notificationPayloads', () => {
  it('reads nothing from an empty payload and one entry per line otherwise', () => {
    expect(notificationPayloads(undefined)).toEqual([]);
    expect(notificationPayloads('')).toEqual([]);
    expect(notificationPayloads('a:1')).toEqual(['a:1']);
    expect(notificationPayloads('a:1\nb:2')).toEqual(['a:1', 'b:2']);
  });
});
