/**
 * When to reconnect to an event stream that dropped, and when to give up. Pure: no I/O, no clock.
 */
export interface ReconnectPolicy {
  /** Delay before the first reconnect after a connection that carried data. @defaultValue 1000 */
  initialDelayMs: number;
  /** The delay doubles per failed reconnect in a row, up to this. @defaultValue 10000 */
  maxDelayMs: number;
  /** Give up once the stream delivered no byte (keepalives count) for this long. @defaultValue 180000 (3 min) */
  giveUpAfterMs: number;
  /**
   * A connection silent this long is treated as dead and replaced: the server sends keepalive
   * comments, so silence means a half-open connection that would otherwise hang forever.
   * @defaultValue 45000
   */
  stallAfterMs: number;
}

export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 10_000,
  giveUpAfterMs: 180_000,
  stallAfterMs: 45_000,
};

/**
 * The wait before reconnect number `failuresInARow` (0 for the first after a connection that
 * carried data): 1 s, 2 s, 4 s, 8 s, then 10 s. The server's `retry:` is honoured as a floor,
 * never beyond the cap, so a server asking for long pauses cannot stall the client past it.
 */
export function reconnectDelayMs(failuresInARow: number, serverRetryMs: number | undefined, policy: ReconnectPolicy): number {
  const backoff = policy.initialDelayMs * 2 ** Math.min(failuresInARow, 30);
  return Math.min(policy.maxDelayMs, Math.max(serverRetryMs ?? 0, backoff));
}

/** True once the stream has been silent for longer than the policy tolerates. */
export function shouldGiveUp(silentForMs: number, policy: ReconnectPolicy): boolean {
  return silentForMs >= policy.giveUpAfterMs;
}
