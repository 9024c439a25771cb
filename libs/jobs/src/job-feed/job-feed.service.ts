import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, LOGGER } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { JobNotFoundError } from '../job.errors';
import { FeedPositionAheadError } from './job-feed.errors';
import type { JobFeedListener } from './job-feed.listener';
import {
  DEFAULT_SSE_KEEPALIVE_MS,
  DEFAULT_SSE_REREAD_MS,
  DEFAULT_SSE_RETRY_MS,
  JOB_FEED_LISTENER,
  JOB_FEED_OPTIONS,
  type JobFeedModuleOptions,
} from './job-feed.options';
import { feedOpening } from './job-feed.policy';
import { JobFeedRepository } from './job-feed.repository';
import { JobFeedSubscriber, type FeedSink, type FeedSource } from './job-feed.subscriber';
import { sseComment, sseRetry } from './sse.frames';

/** An open stream; `close` ends it (idempotent). */
export interface JobFeedStream {
  close(): void;
}

/**
 * `GET /v1/jobs/{id}/events`: streams a job's feed from a resume point until the job ends, the
 * client leaves or the api stops. Each stream reads the feed table itself (`seq > last sent`), so
 * it neither skips nor repeats; the process's one listener only tells it when to read, a timer
 * re-reads in case a notification was lost, and comment lines keep idle connections open.
 */
@Injectable()
export class JobFeedService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly feed = new JobFeedRepository();
  private readonly source: FeedSource;
  private readonly streams = new Set<JobFeedStream>();
  private stopping = false;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(JOB_FEED_OPTIONS) private readonly options: JobFeedModuleOptions,
    @Inject(JOB_FEED_LISTENER) private readonly listener: JobFeedListener,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.source = { after: (jobId, after, limit) => withConnection(this.dataSource, (sql) => this.feed.after(sql, jobId, after, limit)) };
  }

  /**
   * Checks the request before anything is sent: an unknown job (or another tenant's) is `JobNotFoundError`, a position
   * past the newest entry `FeedPositionAheadError`. `finished`: the job has ended and the client
   * has all of it, so there is nothing to stream.
   */
  async open(jobId: string, tenantId: string, resume: { after: number; field: string | null }): Promise<{ finished: boolean }> {
    const head = await withConnection(this.dataSource, (sql) => this.feed.head(sql, jobId, tenantId));
    if (!head) throw new JobNotFoundError(jobId);
    const opening = feedOpening(head, resume.after);
    if (opening === 'ahead') throw new FeedPositionAheadError(jobId, resume.after, head.feedSeq, resume.field ?? 'Last-Event-ID');
    return { finished: opening === 'finished' };
  }

  /** Starts streaming `jobId`'s entries after `after` into `sink`, beginning with the `retry:` advice. */
  stream(jobId: string, after: number, sink: FeedSink): JobFeedStream {
    // A stream may last hours: its reads must not hang off the request's span as children.
    return context.with(ROOT_CONTEXT, () => this.startStream(jobId, after, sink));
  }

  onApplicationBootstrap(): void {
    this.listener.start();
  }

  /** Ends every stream (clients reconnect, with `Last-Event-ID`, to an instance still up) before the server closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const stream of [...this.streams]) stream.close();
    await this.listener.stop();
  }

  private startStream(jobId: string, after: number, sink: FeedSink): JobFeedStream {
    const timers: NodeJS.Timeout[] = [];
    let unsubscribe: (() => void) | null = null;
    const subscriber = new JobFeedSubscriber(jobId, after, this.source, sink, {
      batchSize: this.options.batchSize,
      onReadError: (error) => this.logger.warn({ err: error, job_id: jobId }, 'job feed read failed; retried at the next wake'),
      onEnd: () => {
        for (const timer of timers) clearInterval(timer);
        unsubscribe?.();
        this.streams.delete(stream);
      },
    });
    const stream: JobFeedStream = { close: () => subscriber.end() };
    void sink.send(sseRetry(this.options.retryMs ?? DEFAULT_SSE_RETRY_MS));
    if (this.stopping) {
      // Shutting down: the client retries, and reaches an instance that is not.
      subscriber.end();
      return stream;
    }
    this.streams.add(stream);
    // Registered before the first read, so no notification falls between the read and listening.
    unsubscribe = this.listener.subscribe(jobId, subscriber);
    timers.push(
      setInterval(() => void sink.send(sseComment('keepalive')), this.options.keepaliveMs ?? DEFAULT_SSE_KEEPALIVE_MS),
      setInterval(() => subscriber.wake(), this.options.rereadMs ?? DEFAULT_SSE_REREAD_MS),
    );
    subscriber.wake();
    return stream;
  }
}
