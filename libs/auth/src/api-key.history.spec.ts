import type { Sql } from '@longhaul/persistence';
import { apiKeyHistory } from './api-key.history';

describe('apiKeyHistory', () => {
  it('deletes by its own retention, not the one the retention loop passes (the jobs’)', async () => {
    const calls: Array<{ text: string; params: unknown[] | undefined }> = [];
    const sql = { execute: async (text: string, params?: unknown[]) => (calls.push({ text, params }), 3), rows: async () => [] } as unknown as Sql;
    const history = apiKeyHistory(90_000_000);
    expect(history.name).toBe('api_keys');
    expect(await history.deleteExpired(sql, 604_800_000, 500)).toBe(3);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params).toEqual([90_000_000, 500]);
    // A key goes by when it stopped working, whichever of revocation and expiry came first.
    expect(calls[0]!.text).toContain('least(revoked_at, expires_at) <');
  });
});
