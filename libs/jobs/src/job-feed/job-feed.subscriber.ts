import { isTerminalEntry, type FeedEntry } from './job-feed.policy';
import { sseEvent } from './sse.frames';

/** Where a subscriber reads entries from (the database; a fake in tests). */
export interface FeedSource {
  /** Up to `limit` entries of `jobId` after position `after`, oldest first. */
  after(jobId: string, after: number, limit: number): Promise<FeedEntry[]>;
}

/** Where a subscriber writes frames (the HTTP response). */
export interface FeedSink {
  /** Writes a chunk; resolves once the client can take more (or is gone). */
  send(chunk: string): Promise<void>;
  /** Ends the response. */
  end(): void;
}

/** Options of {@link JobFeedSubscriber}. */
export interface JobFeedSubscriberOptions {
  /** Entries per read. @defaultValue 100 */
  batchSize?: number;
  /** A read failed; the next wake (a notification or the safety re-read) tries again. */
  onReadError?: (error: unknown) => void;
  /** Runs once when the stream ends, whoever ended it. */
  onEnd?: () => void;
}

/**
 * One client's stream of one job's feed. It remembers the last position it sent and only ever
 * reads `seq > last` from the source, in order, so the client gets every entry once, whatever the
 * notifications do: a wake means "read again", never "here is an entry". Wakes that arrive during
 * a read are folded into one more read. After sending a terminal `job.status` that is the newest
 * entry, the stream ends.
 */
export class JobFeedSubscriber {
  private sent: number;
  private wanted = false;
  private reading: Promise<void> | null = null;
  private ended = false;
  private lastWasTerminal = false;
  private readonly batchSize: number;

  constructor(
    readonly jobId: string,
    after: number,
    private readonly source: FeedSource,
    private readonly sink: FeedSink,
    private readonly options: JobFeedSubscriberOptions = {},
  ) {
    this.sent = after;
    this.batchSize = options.batchSize ?? 100;
  }

  /** The position of the last entry sent (the resume point given at the start until one is). */
  get lastSent(): number {
    return this.sent;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * Asks for a read. `seq` is the position a notification announced: one already sent is
   * ignored. Without it (a reconnect of the listener, the safety timer), it always reads.
   */
  wake(seq?: number): void {
    if (this.ended) return;
    if (seq !== undefined && seq <= this.sent) return;
    this.wanted = true;
    if (!this.reading) this.startReading();
  }

  /** Resolves once no read is in progress. */
  async settled(): Promise<void> {
    while (this.reading) await this.reading;
  }

  /** Ends the stream (client gone, shutdown, or the job ended); idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.sink.end();
    this.options.onEnd?.();
  }

  private startReading(): void {
    this.reading = this.drain().finally(() => {
      this.reading = null;
      // A wake that came after the loop's last check but before this point.
      if (this.wanted && !this.ended) this.startReading();
    });
  }

  private async drain(): Promise<void> {
    while (this.wanted && !this.ended) {
      this.wanted = false;
      let entries: FeedEntry[];
      try {
        entries = await this.source.after(this.jobId, this.sent, this.batchSize);
      } catch (error) {
        // Not retried at once: a database that is down would make this a busy loop.
        this.wanted = false;
        this.options.onReadError?.(error);
        return;
      }
      for (const entry of entries) {
        if (this.ended) return;
        await this.sink.send(sseEvent(entry.seq, entry.kind, entry.event));
        this.sent = entry.seq;
        this.lastWasTerminal = isTerminalEntry(entry);
      }
      if (entries.length === this.batchSize) {
        this.wanted = true;
      } else if (this.lastWasTerminal) {
        // A replayed dead letter can reopen a failed job: only the newest entry ends the stream.
        this.end();
      }
    }
  }
}
