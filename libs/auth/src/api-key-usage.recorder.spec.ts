import type { DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { ApiKeyUsageRecorder, LAST_USED_RESOLUTION_MS } from './api-key-usage.recorder';

/** A recorder whose writes are held until the test settles them. */
class HeldRecorder extends ApiKeyUsageRecorder {
  readonly writes: Array<{ keyId: string; settle: (error?: Error) => void }> = [];
  protected override write(keyId: string): Promise<void> {
    return new Promise((resolve, reject) => this.writes.push({ keyId, settle: (error) => (error ? reject(error) : resolve()) }));
  }
}

function recorder(maxCachedKeys?: number) {
  const logger = { warn: jest.fn() } as unknown as Logger;
  const r = new HeldRecorder({} as DataSource, { keyCacheMs: 1000, maxCachedKeys }, logger);
  let t = 1_000_000;
  r.now = () => t;
  return { r, logger, advance: (ms: number) => (t += ms) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ApiKeyUsageRecorder', () => {
  it('writes a key at its first use and not again within the resolution', () => {
    const { r, advance } = recorder();
    r.used('a');
    r.used('a');
    advance(LAST_USED_RESOLUTION_MS - 1);
    r.used('a');
    r.used('b');
    expect(r.writes.map((w) => w.keyId)).toEqual(['a', 'b']);
    advance(1);
    r.used('a');
    expect(r.writes.map((w) => w.keyId)).toEqual(['a', 'b', 'a']);
  });

  it('logs a failed write and tries again at the key’s next use', async () => {
    const { r, logger } = recorder();
    r.used('a');
    r.writes[0]!.settle(new Error('connection refused'));
    await flush();
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ key_id: 'a' }), expect.stringContaining('not recorded'));
    r.used('a');
    expect(r.writes).toHaveLength(2);
  });

  it('waits for writes under way before shutting down', async () => {
    const { r } = recorder();
    r.used('a');
    let done = false;
    const shutdown = r.beforeApplicationShutdown().then(() => (done = true));
    await flush();
    expect(done).toBe(false);
    r.writes[0]!.settle();
    await shutdown;
    expect(done).toBe(true);
  });

  it('remembers at most maxCachedKeys keys, dropping the oldest', () => {
    const { r } = recorder(2);
    r.used('a');
    r.used('b');
    r.used('c');
    // 'a' was forgotten, so its next use writes again; 'c' is remembered.
    r.used('a');
    r.used('c');
    expect(r.writes.map((w) => w.keyId)).toEqual(['a', 'b', 'c', 'a']);
  });
});
