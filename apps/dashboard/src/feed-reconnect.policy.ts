// When the job page reconnects to a job's event stream after it dropped.

/** The first wait, when the server advised none. */
export const FEED_RECONNECT_BASE_MS = 1000;
/** The shortest wait, whatever the server advised: a failing api is never asked in a tight loop. */
export const FEED_RECONNECT_MIN_MS = 250;
/** The longest wait between two tries. */
export const FEED_RECONNECT_MAX_MS = 15_000;
/** A connection that brought no byte (not even a keepalive comment) for this long is replaced. */
export const FEED_STALL_MS = 45_000;

/**
 * The wait before the next try: the server's `retry` advice (else 1 s, never under 250 ms),
 * doubled for each try in a row that failed before it brought anything, at most 15 s. A connection that delivered
 * something resets the count.
 */
export function feedReconnectDelayMs(failuresInARow: number, serverRetryMs: number | null): number {
  const base = Math.max(serverRetryMs ?? FEED_RECONNECT_BASE_MS, FEED_RECONNECT_MIN_MS);
  return Math.min(FEED_RECONNECT_MAX_MS, base * 2 ** Math.max(0, failuresInARow));
}

/** Answers worth trying again: the api or a proxy in front of it is busy or restarting. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
