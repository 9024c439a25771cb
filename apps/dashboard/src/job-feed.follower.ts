import type { JobFeedEventV1, StepProgressFeedEventV1 } from '@longhaul/contracts';
import { bearerHeaders, reportKeyRefused, storedApiKey } from './api-key.session.js';
import { FEED_STALL_MS, feedReconnectDelayMs, isRetryableStatus } from './feed-reconnect.policy.js';
import { SseFrameParser, type SseMessage } from './sse-frame.parser.js';

/** Where the stream is: opening or reconnecting, open, or over (the job ended and every event was read). */
export type FeedState = 'connecting' | 'live' | 'ended';

/** What {@link followJobFeed} reports. */
export interface JobFeedListener {
  /** A `job.status` or `step.status` event: the job view is worth reading again. */
  onStatus(event: JobFeedEventV1): void;
  onProgress(event: StepProgressFeedEventV1): void;
  onState(state: FeedState): void;
}

const TERMINAL_JOB_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

/** How one connection ended: read again after a wait, or stop for good. */
type ConnectionEnd = 'reconnect' | 'ended';

/**
 * Follows one job's Server-Sent Events (`GET /v1/jobs/{id}/events`) with `fetch`, because an
 * `EventSource` cannot send the API key. It does what an `EventSource` would, with the key:
 * reads the body as it streams, resumes with `Last-Event-ID` after a drop (waiting as
 * feed-reconnect.policy.ts says, and replacing a connection silent for too long), and skips an
 * event whose id it has already seen. It stops for good on a terminal `job.status` event, on a
 * `204` (the job ended and every event was read), and on any refusal other than a busy api; a
 * `401` also hands the matter to the key prompt. Only the job page opens one, for its one job, so
 * a list of jobs never holds dozens of streams.
 */
export function followJobFeed(url: string, listener: JobFeedListener): { close(): void } {
  let closed = false;
  let connection: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ends the wait before a reconnect early (on `close()`). */
  let wake: (() => void) | null = null;
  let lastEventId = '';
  /** The highest numeric id seen: a frame at or below it is a repeat. */
  let lastSeq = 0;
  let serverRetryMs: number | null = null;
  let failuresInARow = 0;

  const dispatch = (message: SseMessage): boolean => {
    const seq = /^[0-9]+$/.test(message.id) ? Number(message.id) : null;
    if (seq !== null) {
      if (seq <= lastSeq) return false;
      lastSeq = seq;
    }
    let data: JobFeedEventV1;
    try {
      data = JSON.parse(message.data) as JobFeedEventV1;
    } catch {
      return false;
    }
    switch (message.event) {
      case 'job.status':
        listener.onStatus(data);
        return data.kind === 'job.status' && TERMINAL_JOB_STATUSES.includes(data.status);
      case 'step.status':
        listener.onStatus(data);
        return false;
      case 'step.progress':
        if (data.kind === 'step.progress') listener.onProgress(data);
        return false;
      default:
        // Kinds this page does not know yet are skipped, so a newer api does not break it.
        return false;
    }
  };

  const readOnce = async (): Promise<ConnectionEnd> => {
    const abort = (connection = new AbortController());
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const armStallTimer = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => abort.abort(), FEED_STALL_MS);
    };
    const key = storedApiKey();
    try {
      armStallTimer();
      const response = await fetch(url, {
        headers: { accept: 'text/event-stream', ...bearerHeaders(key), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        cache: 'no-store',
        signal: abort.signal,
      });
      if (response.status === 204) return 'ended';
      if (response.status === 401) {
        reportKeyRefused(key);
        return 'ended';
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        return isRetryableStatus(response.status) ? 'reconnect' : 'ended';
      }
      listener.onState('live');
      const parser = new SseFrameParser(lastEventId);
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return 'reconnect';
        failuresInARow = 0;
        armStallTimer();
        let finished = false;
        for (const message of parser.push(decoder.decode(chunk.value, { stream: true }))) {
          if (closed) break;
          finished = dispatch(message) || finished;
        }
        lastEventId = parser.lastEventId;
        serverRetryMs = parser.retryMs ?? serverRetryMs;
        if (finished || closed) {
          await reader.cancel().catch(() => undefined);
          return 'ended';
        }
      }
    } catch {
      // A dropped connection, a stalled one, or `close()`: the loop below tells them apart.
      return 'reconnect';
    } finally {
      clearTimeout(stallTimer);
      abort.abort();
    }
  };

  const run = async () => {
    listener.onState('connecting');
    while (!closed) {
      const end = await readOnce();
      if (closed) return;
      if (end === 'ended') {
        closed = true;
        listener.onState('ended');
        return;
      }
      const delayMs = feedReconnectDelayMs(failuresInARow, serverRetryMs);
      failuresInARow += 1;
      listener.onState('connecting');
      await new Promise<void>((resolve) => {
        wake = resolve;
        retryTimer = setTimeout(resolve, delayMs);
      });
      wake = null;
    }
  };

  void run();
  return {
    // Stops without a word to the listener, as `EventSource.close()` does.
    close: () => {
      closed = true;
      clearTimeout(retryTimer);
      connection?.abort();
      wake?.();
    },
  };
}
