import type { Sql } from '@longhaul/persistence';

/** A stored key: which job it created, from which request. */
export interface StoredIdempotencyKey {
  jobId: string;
  requestHash: string;
}

/** SQL of `api.idempotency_keys`; a new key is written with its job (`JobAcceptanceWriter`). */
export class IdempotencyKeyRepository {
  /**
   * Serialises concurrent submits of one key (a transaction-scoped advisory lock), then returns
   * the live entry if any. Expired entries are removed so the key can be used again.
   */
  async lockAndFind(sql: Sql, scope: string, key: string): Promise<StoredIdempotencyKey | null> {
    await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [JSON.stringify([scope, key])]);
    await sql.execute(`DELETE FROM api.idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at <= now()`, [scope, key]);
    const [row] = await sql.rows<{ job_id: string; request_hash: string }>(
      `SELECT job_id, request_hash FROM api.idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    return row ? { jobId: row.job_id, requestHash: row.request_hash } : null;
  }

  /** The live entry of a key, without locking (a replay's fast path; the lock comes later). */
  async find(sql: Sql, scope: string, key: string): Promise<StoredIdempotencyKey | null> {
    const [row] = await sql.rows<{ job_id: string; request_hash: string }>(
      `SELECT job_id, request_hash FROM api.idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at > now()`,
      [scope, key],
    );
    return row ? { jobId: row.job_id, requestHash: row.request_hash } : null;
  }
}
