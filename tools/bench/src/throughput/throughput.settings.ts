// The load shape both throughput benchmarks share, so their figures compare one to one.

/**
 * Connection counts: one client (latency without queueing), 16 (more than the api's 10 database
 * connections, about what a busy client pool sends), 64 (far more clients than cores).
 */
export const THROUGHPUT_CONNECTIONS = [1, 16, 64] as const;
/** Before each measured run, the same load, not counted: connections, JIT, caches and the WAL warm up. */
export const WARMUP_S = 2;
/** Each measured run. */
export const MEASURE_S = 10;
