import { Pool, type PoolConfig } from 'pg';

/**
 * A pg pool for a test's or benchmark's own queries that survives the server ending one of its
 * idle connections: a stack component restarted under it, or a scratch database dropped
 * `WITH (FORCE)` right after the pool was ended (`pool.end()` resolves before its connections
 * have finished closing, and the server then terminates them with `57P01`). Without an `error`
 * listener such a pool takes the process down; with it, the lost connection is simply gone and
 * the next query opens another.
 */
export function probePool(config: PoolConfig): Pool {
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  return pool;
}
