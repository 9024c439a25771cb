import type { Readable } from 'node:stream';
import type { BlobInfo, BlobStore, ByteRange } from '@longhaul/storage';

/**
 * A {@link BlobStore} that passes every call through and measures the wall time during which at
 * least one call of a kind was in flight: `fetch` (reads: `get`, `getToFile`) and `publish`
 * (writes and housekeeping: `put`, `putFile`, `list`, `delete`, `stat`). Concurrent uploads
 * count once, so the figures add up to part of the caller's wall time.
 */
export class TimedBlobStore implements BlobStore {
  readonly driver: BlobStore['driver'];
  private readonly clocks = { fetch: new BusyClock(), publish: new BusyClock() };

  /** `inner`: the store itself, for untimed housekeeping. */
  constructor(readonly inner: BlobStore) {
    this.driver = inner.driver;
  }

  /** Busy time of each kind since the last reset, in ms. */
  take(): { fetchMs: number; publishMs: number } {
    const taken = { fetchMs: this.clocks.fetch.busyMs, publishMs: this.clocks.publish.busyMs };
    this.clocks.fetch.reset();
    this.clocks.publish.reset();
    return taken;
  }

  put(key: string, body: Readable, options?: { contentType?: string; contentLength?: number }): Promise<BlobInfo> {
    return this.clocks.publish.time(() => this.inner.put(key, body, options));
  }
  putFile(key: string, path: string, options?: { contentType?: string }): Promise<BlobInfo> {
    return this.clocks.publish.time(() => this.inner.putFile(key, path, options));
  }
  get(key: string, range?: ByteRange): Promise<BlobInfo & { body: Readable }> {
    return this.clocks.fetch.time(() => this.inner.get(key, range));
  }
  getToFile(key: string, path: string): Promise<BlobInfo> {
    return this.clocks.fetch.time(() => this.inner.getToFile(key, path));
  }
  stat(key: string): Promise<BlobInfo | null> {
    return this.clocks.publish.time(() => this.inner.stat(key));
  }
  delete(key: string): Promise<void> {
    return this.clocks.publish.time(() => this.inner.delete(key));
  }
  deleteFolder(folder: string): Promise<void> {
    return this.clocks.publish.time(() => this.inner.deleteFolder(folder));
  }
  list(prefix: string): Promise<string[]> {
    return this.clocks.publish.time(() => this.inner.list(prefix));
  }
  signedUrl(key: string, ttlSeconds: number): Promise<string | null> {
    return this.inner.signedUrl(key, ttlSeconds);
  }
}

/** Wall time during which at least one timed call was running. */
class BusyClock {
  busyMs = 0;
  private inFlight = 0;
  private since = 0;

  async time<T>(call: () => Promise<T>): Promise<T> {
    if (this.inFlight++ === 0) this.since = performance.now();
    try {
      return await call();
    } finally {
      if (--this.inFlight === 0) this.busyMs += performance.now() - this.since;
    }
  }

  reset(): void {
    this.busyMs = 0;
  }
}
