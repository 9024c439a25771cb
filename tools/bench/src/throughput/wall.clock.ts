// The wall clock the throughput benchmarks stamp events with. Postgres (`now()`), Kafka Connect
// (record timestamps) and this process all read the same kernel clock, so instants taken by any of
// them can be subtracted from one another; this one has a resolution below a millisecond.

const anchorWallMs = Date.now();
const anchorMonotonicMs = performance.now();

/**
 * Milliseconds since the Unix epoch, with sub-millisecond resolution: `Date.now()` read once,
 * then advanced by the monotonic clock, so a reading never goes backwards within a run. Linux
 * slews the monotonic clock at the wall clock's rate, so the two part only if the wall clock is
 * stepped (set by hand, or by NTP after a large error) while the benchmark runs.
 */
export function wallNow(): number {
  return anchorWallMs + (performance.now() - anchorMonotonicMs);
}
