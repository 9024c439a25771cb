/** The part of kafkajs' per-connection request queue this fix touches. */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** How soon a queue with held-back requests looks again when no throttle says otherwise (kafkajs' own value). */
const CHECK_PENDING_REQUESTS_MS = 10;

let applied = false;

/**
 * Stops kafkajs 2.2.4 from waking every process once a millisecond per broker connection.
 *
 * Its request queue re-arms a timer after every check, even with no request waiting; the delay
 * is then `throttledUntil - now` with `throttledUntil` at -1, a negative number Node turns into
 * 1 ms (and, from Node 24, warns about: `TimeoutNegativeWarning`). So each connection of each
 * consumer, producer and admin client runs a check a millisecond for as long as it is open
 * (tulios/kafkajs#1556, #1704; no release fixes it). Idle, with this project's nine consumers
 * and their producers, the four services used 0.18 of this machine's two cores doing nothing.
 *
 * The replacement arms the timer only when a request is held back: until the broker's throttle
 * ends, or 10 ms while the in-flight limit holds it (a finished request also re-checks, as
 * before). With nothing held back there is nothing to check: a new request is sent at once, or
 * queued by `push`, which schedules the check itself. Applied once per process, before any
 * client is made.
 */
export function fixKafkajsRequestQueue(): void {
  if (applied) return;
  applied = true;
  // kafkajs exports no handle on its request queue: reach the class through its own module.
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };
  RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const untilUnthrottled = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_MS);
  };
}
