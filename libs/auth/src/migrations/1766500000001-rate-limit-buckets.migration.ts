import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Rate limits shared by every api process (`RATE_LIMIT_SCOPE=cluster`): one GCRA bucket a key,
 * its theoretical arrival time in epoch milliseconds of the database's clock, the one clock all
 * processes agree on.
 *
 * - **Unlogged**: a bucket is written about once a second per busy key and process, and is worth
 *   nothing after a crash (Postgres empties the table then, which hands every key a full quota,
 *   as a restart of a lone api process always did). No WAL, so no cost to the relay's slot.
 * - **No foreign key** to `api.api_keys`: it would cost a check on every write, and a bucket of a
 *   deleted key is only a stale number. Buckets full for a minute are deleted (a full bucket and
 *   none mean the same), so the table holds about the keys in use.
 * - **`api.take_rate_tokens`** grants up to `wanted` requests at once under the row's lock, so
 *   concurrent processes never grant the same capacity twice; `api.give_back_rate_tokens` returns
 *   what a process leased and did not use.
 */
export class RateLimitBuckets1766500000001 implements MigrationInterface {
  name = 'RateLimitBuckets1766500000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE UNLOGGED TABLE api.rate_limit_buckets (
        key_id uuid PRIMARY KEY,
        tat_ms double precision NOT NULL
      )`);
    // granted: requests granted now (0 when refused); tat_ms: the bucket after the grant;
    // now_ms: the database's clock. A request i (1-based) fits when tat + i·T − now ≤ window,
    // T = window ÷ quota; the epsilon keeps 0.1 + 0.2 from refusing the last request of a quota.
    await runner.query(`
      CREATE FUNCTION api.take_rate_tokens(p_key uuid, p_wanted integer, p_quota integer, p_window_ms integer)
      RETURNS TABLE (granted integer, tat_ms double precision, now_ms double precision)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        v_now double precision := extract(epoch FROM clock_timestamp()) * 1000;
        v_interval double precision := p_window_ms::double precision / p_quota;
        v_from double precision;
        v_granted integer;
      BEGIN
        INSERT INTO api.rate_limit_buckets AS b (key_id, tat_ms) VALUES (p_key, v_now)
          ON CONFLICT (key_id) DO UPDATE SET tat_ms = b.tat_ms
          RETURNING greatest(b.tat_ms, v_now) INTO v_from;
        v_granted := greatest(0, least(p_wanted, floor((v_now + p_window_ms - v_from) / v_interval + 1e-9)::integer));
        IF v_granted > 0 THEN
          UPDATE api.rate_limit_buckets SET tat_ms = v_from + v_granted * v_interval WHERE key_id = p_key;
        END IF;
        RETURN QUERY SELECT v_granted, v_from + v_granted * v_interval, v_now;
      END
      $$`);
    // A bucket never runs below the clock: below it, it is as full as it gets.
    await runner.query(`
      CREATE FUNCTION api.give_back_rate_tokens(p_keys uuid[], p_tokens integer[], p_interval_ms double precision[])
      RETURNS void
      LANGUAGE sql AS $$
        UPDATE api.rate_limit_buckets b
           SET tat_ms = greatest(b.tat_ms - r.tokens * r.interval_ms, extract(epoch FROM clock_timestamp()) * 1000)
          FROM unnest(p_keys, p_tokens, p_interval_ms) AS r (key_id, tokens, interval_ms)
         WHERE b.key_id = r.key_id
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION IF EXISTS api.give_back_rate_tokens(uuid[], integer[], double precision[])`);
    await runner.query(`DROP FUNCTION IF EXISTS api.take_rate_tokens(uuid, integer, integer, integer)`);
    await runner.query(`DROP TABLE IF EXISTS api.rate_limit_buckets`);
  }
}
