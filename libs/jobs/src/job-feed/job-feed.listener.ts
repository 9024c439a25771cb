import { notificationPayloads } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { JOB_FEED_CHANNEL, parseFeedNotification } from './job-feed.policy';

/** What the listener needs of a `pg` client; a fake stands in for it in tests. */
export interface NotificationClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** Whoever wants to hear of new entries of a job. */
export interface FeedWaker {
  /** `seq`: the entry a notification announced; absent: read again, something may have been missed. */
  wake(seq?: number): void;
}

/** Options of {@link JobFeedListener}. */
export interface JobFeedListenerOptions {
  /** A new, unconnected client for each connection attempt. */
  createClient: () => NotificationClient;
  logger: Logger;
  /** First delay before reconnecting, doubled after each failure. @defaultValue 250 */
  reconnectBaseMs?: number;
  /** Longest delay before reconnecting. @defaultValue 10000 */
  reconnectCapMs?: number;
}

/** The delay before reconnect attempt `failures + 1`. */
export function reconnectDelay(failures: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.min(failures, 30));
}

/**
 * ONE connection per api process, outside the query pool, that `LISTEN`s on the feed's channel
 * and wakes the subscribers of the job each notification names. Every api instance listens, and
 * Postgres delivers each notification to every listener, so any instance can serve any job's
 * stream. A lost connection is re-opened with backoff; once listening again, every subscriber is
 * woken, since whatever was committed in between was announced to nobody here.
 */
export class JobFeedListener {
  private readonly subscribers = new Map<string, Set<FeedWaker>>();
  private client: NotificationClient | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly baseMs: number;
  private readonly capMs: number;

  constructor(private readonly options: JobFeedListenerOptions) {
    this.baseMs = options.reconnectBaseMs ?? 250;
    this.capMs = options.reconnectCapMs ?? 10_000;
  }

  /** Whether the connection is up and listening. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Starts connecting in the background; a database that is down only delays the first `LISTEN`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** Registers `waker` for `jobId`'s notifications; returns the function that unregisters it. */
  subscribe(jobId: string, waker: FeedWaker): () => void {
    const key = jobId.toLowerCase();
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(waker);
    return () => {
      set.delete(waker);
      if (set.size === 0 && this.subscribers.get(key) === set) this.subscribers.delete(key);
    };
  }

  /** How many streams are registered, over all jobs. */
  get subscriberCount(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }

  private async connect(): Promise<void> {
    const client = this.options.createClient();
    let lost = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      void Promise.resolve()
        .then(() => client.end())
        .catch(() => undefined);
      if (!this.running) return;
      const delay = reconnectDelay(this.failures++, this.baseMs, this.capMs);
      this.options.logger.warn({ err: error, retry_in_ms: delay }, 'job feed listener lost its connection');
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.running) void this.connect();
      }, delay);
    };
    client.on('notification', (message) => this.dispatch(message));
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${JOB_FEED_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost) return;
    if (!this.running) {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) this.options.logger.info({ channel: JOB_FEED_CHANNEL }, 'job feed listener listening again');
    this.failures = 0;
    this.wakeAll();
  }

  /**
   * A notification carries one or more `<jobId>:<seq>` (the sender packs what it queued). Every
   * instance hears every job's notifications, so one without streams reads none of them.
   */
  private dispatch(message: { channel: string; payload?: string }): void {
    if (message.channel !== JOB_FEED_CHANNEL || this.subscribers.size === 0) return;
    for (const payload of notificationPayloads(message.payload)) {
      const parsed = parseFeedNotification(payload);
      if (!parsed) {
        this.options.logger.warn({ payload }, 'job feed notification ignored: not <jobId>:<seq>');
        continue;
      }
      for (const waker of this.subscribers.get(parsed.jobId) ?? []) waker.wake(parsed.seq);
    }
  }

  private wakeAll(): void {
    for (const set of this.subscribers.values()) for (const waker of set) waker.wake();
  }
}
