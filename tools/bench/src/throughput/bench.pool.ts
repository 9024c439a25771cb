import { Pool, type PoolConfig } from 'pg';

/**
 * A pg pool for the benchmark's own queries that survives the server ending one of its idle
 * connections. The benchmarks drop scratch databases `WITH (FORCE)` right after ending their
 * pools, and `pool.end()` resolves before its connections have finished closing: the server then
 * terminates them (`57P01`), and a pool without an `error` listener would take the process down
 * with it. A connection lost that way is simply gone; the next query opens another.
 */
export function benchPool(config: PoolConfig): Pool {
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  return pool;
}
