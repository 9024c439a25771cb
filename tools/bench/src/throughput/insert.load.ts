import type { Pool, PoolClient } from 'pg';
import type { LoadRun } from './load-run';

/** Options of {@link driveInserts}. */
export interface InsertLoadOptions {
  /** A pool of at least `connections` connections. */
  pool: Pool;
  /** The table written, `<schema>.<table>` with a `payload jsonb` column. */
  table: string;
  /** The JSON stored in every row. */
  payload: string;
  connections: number;
  durationS: number;
  signal: AbortSignal;
}

/**
 * `connections` clients, each on its own connection, each running `BEGIN; INSERT one row;
 * COMMIT` — three round trips, as an application's transaction is — then the next, until
 * `durationS` has passed. A transaction counts, with its latency, once COMMIT has returned: with
 * the server's `synchronous_commit` that is after the WAL reached the disk. The INSERT is a named
 * prepared statement, so the server parses it once per connection.
 */
export async function driveInserts(options: InsertLoadOptions): Promise<LoadRun> {
  const clients: PoolClient[] = [];
  try {
    // Connected before the clock starts: the run measures transactions, not connection set-up.
    for (let i = 0; i < options.connections; i++) clients.push(await options.pool.connect());
    const insert = { name: `bench-insert-${options.table}`, text: `INSERT INTO ${options.table} (payload) VALUES ($1)`, values: [options.payload] };
    const latenciesMs: number[] = [];
    let errors = 0;
    let inFlight = 0;
    const started = performance.now();
    const deadline = started + options.durationS * 1000;
    let ended = started;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < deadline && !options.signal.aborted) {
          const begun = performance.now();
          inFlight++;
          try {
            await client.query('BEGIN');
            await client.query(insert);
            await client.query('COMMIT');
            latenciesMs.push(performance.now() - begun);
          } catch {
            errors++;
            await client.query('ROLLBACK').catch(() => undefined);
          } finally {
            inFlight--;
          }
        }
        ended = Math.max(ended, performance.now());
      }),
    );
    return {
      connections: options.connections,
      // Until the last transaction begun before the deadline committed: every counted one fits in it.
      durationS: (ended - started) / 1000,
      ok: latenciesMs.length,
      byStatus: {},
      latenciesMs,
      errors,
      cutOff: inFlight,
    };
  } finally {
    for (const client of clients) client.release();
  }
}
