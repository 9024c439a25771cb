// Cancelling what a benchmark left open. A run that was interrupted, or whose backlog outlasted
// its final drain, leaves jobs queued on the shared stack: the next services to start (the next
// benchmark, a test suite) would work through them first and measure or wait for the wrong thing.

import { probePool } from '@longhaul/testing';
import { Pool } from 'undici';

/** Cancels in flight at once: enough to be quick, few enough not to swamp a busy api. */
const CANCELS_IN_FLIGHT = 8;

/**
 * Cancels every job of tenant `tenantName` that has not ended, through the api's own
 * `POST /v1/jobs/{id}/cancel`, so each cancel is recorded, announced and reaches the workers as
 * any user's would. Returns how many the api cancelled now (`202`); a job that ended meanwhile
 * answers `409` and is left as it is.
 */
export async function cancelOpenJobs(databaseUrl: string, tenantName: string, apiUrl: string, apiKey: string): Promise<number> {
  const db = probePool({ connectionString: databaseUrl, max: 1 });
  let ids: string[];
  try {
    const { rows } = await db.query<{ id: string }>(
      `SELECT j.id FROM api.jobs j JOIN api.tenants t ON t.id = j.tenant_id
        WHERE t.name = $1 AND j.status NOT IN ('completed', 'failed', 'cancelled')`,
      [tenantName],
    );
    ids = rows.map((r) => r.id);
  } finally {
    await db.end();
  }
  if (ids.length === 0) return 0;
  const http = new Pool(apiUrl, { connections: CANCELS_IN_FLIGHT });
  let cancelled = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const response = await http.request({ path: `/v1/jobs/${id}/cancel`, method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
      await response.body.dump();
      if (response.statusCode === 202) cancelled += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: CANCELS_IN_FLIGHT }, worker));
  } finally {
    await http.close();
  }
  return cancelled;
}
