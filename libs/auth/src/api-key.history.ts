import { historyStatement, type HistoryTable } from '@longhaul/persistence';

/**
 * Revoked and expired API keys, for `CoreModule`'s retention loop: a key goes once it stopped
 * working (revoked, or past its expiry, whichever came first) longer than `retentionMs` ago, so
 * `keys list` and `GET /v1/api-keys` stop showing it. A key that still works never goes. Its
 * own retention, not `JOB_RETENTION_MS` (the loop's): a key is kept for the audit of its use,
 * a job for its result. Nothing references a key's row; its rate-limit bucket is pruned apart.
 */
export function apiKeyHistory(retentionMs: number): HistoryTable {
  const table = historyStatement(
    'api_keys',
    `DELETE FROM api.api_keys
      WHERE id IN (SELECT id FROM api.api_keys
                    WHERE least(revoked_at, expires_at) < now() - $1::bigint * interval '1 millisecond'
                    LIMIT $2
                    FOR UPDATE SKIP LOCKED)`,
  );
  return { name: table.name, deleteExpired: (sql, _jobRetentionMs, limit) => table.deleteExpired(sql, retentionMs, limit) };
}
