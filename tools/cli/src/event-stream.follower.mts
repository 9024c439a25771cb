/**
 * Follows a Server-Sent Events stream across dropped connections, as `EventSource` would but
 * with the policy of `reconnect.policy.mts`: reconnect with `Last-Event-ID` after a drop, a
 * clean close, a silent connection or a 5xx/429, backing off 1 s, 2 s, 4 s, … 10 s; give up
 * once no byte arrived for `giveUpAfterMs`. A 4xx is final (the job does not exist, say) and
 * thrown as `ApiError`; a `204` means the server has nothing more to send, as the spec says.
 *
 * Frames whose numeric `id` is not above the last one seen are skipped, so a server that resumes
 * one frame early never makes the caller see an event twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { networkReason, problemError } from './api.client.mts';
import { CliError } from './cli.errors.mts';
import { DEFAULT_RECONNECT_POLICY, reconnectDelayMs, shouldGiveUp } from './reconnect.policy.mts';
import type { ReconnectPolicy } from './reconnect.policy.mts';
import { SseParser } from './sse.parser.mts';
import type { SseEvent } from './sse.parser.mts';
import { formatDuration } from './units.format.mts';

export interface FollowOptions {
  url: string;
  /** Sent on every connection, reconnects included: the API key's `authorization`. */
  headers?: Record<string, string>;
  /** Resume after this event id (sent as `Last-Event-ID` on the first connection too). */
  lastEventId?: string;
  signal?: AbortSignal;
  policy?: Partial<ReconnectPolicy>;
  /** Each event, in order; return true to stop following. */
  onEvent(event: SseEvent): boolean | void | Promise<boolean | void>;
  /** Told before each reconnect wait, to show it. */
  onReconnect?(notice: ReconnectNotice): void;
  /**
   * Asked after the wait, before connecting again; true ends the follow. Lets a caller check
   * by other means whether there is anything left to wait for. A failure counts as false.
   */
  beforeReconnect?(): Promise<boolean>;
}

export interface ReconnectNotice {
  /** Why the last connection ended (`ECONNREFUSED`, `the server closed the stream`, …). */
  reason: string;
  delayMs: number;
  /** Reconnects in a row without data, this one included. */
  attempt: number;
  lastEventId: string;
}

export interface FollowResult {
  /** `stopped`: `onEvent` asked to; `ended`: the server answered 204; `halted`: `beforeReconnect` said so. */
  outcome: 'stopped' | 'ended' | 'halted';
  lastEventId: string;
}

/** What survives from one connection to the next. */
interface StreamState {
  /** Sent as `Last-Event-ID` on the next connection. */
  lastEventId: string;
  /** The highest numeric id seen; frames at or below it are repeats. */
  lastSeq: number;
  retryMs: number | undefined;
  lastByteAt: number;
  gotBytes: boolean;
}

type Connection = { kind: 'stopped' } | { kind: 'ended' } | { kind: 'dropped'; reason: string };

export async function followEventStream(options: FollowOptions): Promise<FollowResult> {
  const policy: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY, ...options.policy };
  const lastEventId = options.lastEventId ?? '';
  const state: StreamState = {
    lastEventId,
    lastSeq: /^[0-9]+$/.test(lastEventId) ? Number(lastEventId) : -1,
    retryMs: undefined,
    lastByteAt: Date.now(),
    gotBytes: false,
  };
  let failuresInARow = 0;
  for (;;) {
    state.gotBytes = false;
    const connection = await connectOnce(options, policy, state);
    if (connection.kind === 'stopped') return { outcome: 'stopped', lastEventId: state.lastEventId };
    if (connection.kind === 'ended') return { outcome: 'ended', lastEventId: state.lastEventId };
    if (state.gotBytes) failuresInARow = 0;
    const silentMs = Date.now() - state.lastByteAt;
    if (shouldGiveUp(silentMs, policy)) {
      throw new CliError('stream_gave_up', `no data from ${options.url} for ${formatDuration(silentMs)}; last: ${connection.reason}`);
    }
    const delayMs = reconnectDelayMs(failuresInARow, state.retryMs, policy);
    failuresInARow++;
    options.onReconnect?.({ reason: connection.reason, delayMs, attempt: failuresInARow, lastEventId: state.lastEventId });
    await sleep(delayMs, undefined, { signal: options.signal });
    if (options.beforeReconnect && (await options.beforeReconnect().catch(() => false))) {
      return { outcome: 'halted', lastEventId: state.lastEventId };
    }
  }
}

/** One connection, read until it ends; connection failures come back as `dropped`, everything else throws. */
async function connectOnce(options: FollowOptions, policy: ReconnectPolicy, state: StreamState): Promise<Connection> {
  // An abort that came before the listener below would never reach the connection.
  options.signal?.throwIfAborted();
  const connection = new AbortController();
  const abortWithCaller = (): void => connection.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abortWithCaller, { once: true });
  let stalled = false;
  let stallTimer: NodeJS.Timeout | undefined;
  const armStallTimer = (): void => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      stalled = true;
      connection.abort();
    }, policy.stallAfterMs);
  };
  const dropped = (error: unknown): Connection => {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    return { kind: 'dropped', reason: stalled ? `no data for ${formatDuration(policy.stallAfterMs)}` : networkReason(error) };
  };
  try {
    armStallTimer();
    let response: Response;
    try {
      response = await fetch(options.url, {
        headers: {
          ...options.headers,
          accept: 'text/event-stream',
          'cache-control': 'no-cache',
          ...(state.lastEventId ? { 'last-event-id': state.lastEventId } : {}),
        },
        signal: connection.signal,
      });
    } catch (error) {
      return dropped(error);
    }
    if (response.status === 204) return { kind: 'ended' };
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const error = problemError(response, text);
      if (response.status >= 500 || response.status === 429) return { kind: 'dropped', reason: `the api answered ${response.status} ${error.code}` };
      throw error;
    }
    const contentType = response.headers.get('content-type')?.toLowerCase() ?? '';
    if (!contentType.startsWith('text/event-stream') || !response.body) {
      throw new CliError('bad_response', `${options.url} answered ${response.status} with ${contentType || 'no content type'}, not an event stream`);
    }
    const parser = new SseParser(state.lastEventId);
    const reader = response.body.getReader();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        return dropped(error);
      }
      if (chunk.done) return { kind: 'dropped', reason: 'the server closed the stream' };
      state.gotBytes = true;
      state.lastByteAt = Date.now();
      armStallTimer();
      for (const event of parser.push(chunk.value)) {
        state.lastEventId = event.id;
        const seq = /^[0-9]+$/.test(event.id) ? Number(event.id) : undefined;
        if (seq !== undefined) {
          if (seq <= state.lastSeq) continue;
          state.lastSeq = seq;
        }
        if (await options.onEvent(event)) {
          await reader.cancel().catch(() => undefined);
          return { kind: 'stopped' };
        }
      }
      // An `id:` in a frame without data still moves the resume point, per the spec.
      state.lastEventId = parser.lastEventId;
      state.retryMs = parser.retryMs ?? state.retryMs;
    }
  } finally {
    clearTimeout(stallTimer);
    options.signal?.removeEventListener('abort', abortWithCaller);
    // Releases the socket whatever way the connection ended.
    connection.abort();
  }
}
