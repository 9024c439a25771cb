import type { JobFeedEventV1, StepProgressFeedEventV1 } from '@longhaul/contracts';

/** Where the stream is: opening or reconnecting, open, or over (the job ended and every event was read). */
export type FeedState = 'connecting' | 'live' | 'ended';

/** What {@link followJobFeed} reports. */
export interface JobFeedListener {
  /** A `job.status` or `step.status` event: the job view is worth reading again. */
  onStatus(event: JobFeedEventV1): void;
  onProgress(event: StepProgressFeedEventV1): void;
  onState(state: FeedState): void;
}

/**
 * Follows one job's Server-Sent Events (`GET /v1/jobs/{id}/events`) with an `EventSource`, which
 * reconnects on its own with `Last-Event-ID`. The api closes the stream after the job's final
 * status; the reconnect that follows is answered `204`, which ends the `EventSource` for good.
 * Only the job page opens one, for its one job, so a list of jobs never holds dozens of streams.
 */
export function followJobFeed(url: string, listener: JobFeedListener): { close(): void } {
  const source = new EventSource(url);
  listener.onState('connecting');
  const parse = (event: Event): JobFeedEventV1 | null => {
    try {
      return JSON.parse((event as MessageEvent<string>).data) as JobFeedEventV1;
    } catch {
      return null;
    }
  };
  const onStatus = (event: Event) => {
    const data = parse(event);
    if (data) listener.onStatus(data);
  };
  source.addEventListener('open', () => listener.onState('live'));
  source.addEventListener('error', () => listener.onState(source.readyState === EventSource.CLOSED ? 'ended' : 'connecting'));
  source.addEventListener('job.status', onStatus);
  source.addEventListener('step.status', onStatus);
  source.addEventListener('step.progress', (event) => {
    const data = parse(event);
    if (data?.kind === 'step.progress') listener.onProgress(data);
  });
  return { close: () => source.close() };
}
