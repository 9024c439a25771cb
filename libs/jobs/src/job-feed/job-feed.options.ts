/** Options of `JobFeedModule.forRoot`; the api's config supplies them. All durations in ms. */
export interface JobFeedModuleOptions {
  /** Postgres URL of the listening connection (the api's `DATABASE_URL`). */
  databaseUrl: string;
  /**
   * Time between comment lines on an open stream, so proxies and load balancers do not close it
   * as idle. The api reads it from `SSE_KEEPALIVE_MS`. @defaultValue {@link DEFAULT_SSE_KEEPALIVE_MS}
   */
  keepaliveMs?: number;
  /**
   * Time between a stream's safety re-reads of the feed, in case a notification was lost. The api
   * reads it from `SSE_REREAD_MS`. @defaultValue {@link DEFAULT_SSE_REREAD_MS}
   */
  rereadMs?: number;
  /** The reconnect delay a stream advises its client (`retry:`). @defaultValue {@link DEFAULT_SSE_RETRY_MS} */
  retryMs?: number;
  /** Feed entries per read. @defaultValue 100 */
  batchSize?: number;
}

/** @see JobFeedModuleOptions.keepaliveMs */
export const DEFAULT_SSE_KEEPALIVE_MS = 15_000;
/** @see JobFeedModuleOptions.rereadMs */
export const DEFAULT_SSE_REREAD_MS = 5_000;
/** @see JobFeedModuleOptions.retryMs */
export const DEFAULT_SSE_RETRY_MS = 2_000;

export const JOB_FEED_OPTIONS = Symbol('longhaul.jobFeedOptions');
export const JOB_FEED_LISTENER = Symbol('longhaul.jobFeedListener');
