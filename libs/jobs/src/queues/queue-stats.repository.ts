import { Lanes, type Lane } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import type { LaneStepFigures } from './queue-sample';

/** Throughput counts the steps finished in this many seconds, divided by it. */
export const THROUGHPUT_WINDOW_SECONDS = 60;

/**
 * Per-lane queue figures from `api.job_steps`, one row per lane given (zeros for an idle lane).
 * In:  $1 text[] lanes, $2 throughput window in seconds.
 * Out: lane, depth (queued, dispatched or not), running, oldest_waiting_ms (age of the oldest
 *      queued attempt whose due time has come: since it was dispatched, else since it fell due,
 *      else since it was queued), finished (steps finished within the window).
 * Open steps are read through `job_steps_open_idx`, finished ones through `job_steps_finished_idx`.
 * Ages are computed with the database's clock, the one that wrote the timestamps.
 */
const LANE_FIGURES_SQL = `
  WITH open_steps AS (
    SELECT lane,
           count(*) FILTER (WHERE status = 'queued')  AS depth,
           count(*) FILTER (WHERE status = 'running') AS running,
           min(coalesce(dispatched_at, due_at, queued_at))
             FILTER (WHERE status = 'queued' AND (due_at IS NULL OR due_at <= now())) AS waiting_since
      FROM api.job_steps
     WHERE status IN ('queued', 'running')
     GROUP BY lane
  ), finished_steps AS (
    SELECT lane, count(*) AS finished
      FROM api.job_steps
     WHERE finished_at >= now() - make_interval(secs => $2)
     GROUP BY lane
  )
  SELECT l.lane,
         coalesce(o.depth, 0)::int   AS depth,
         coalesce(o.running, 0)::int AS running,
         coalesce(greatest(0, floor(extract(epoch FROM now() - o.waiting_since) * 1000)), 0)::bigint AS oldest_waiting_ms,
         coalesce(f.finished, 0)::int AS finished
    FROM unnest($1::text[]) AS l (lane)
    LEFT JOIN open_steps o ON o.lane = l.lane
    LEFT JOIN finished_steps f ON f.lane = l.lane`;

/**
 * Open steps per tenant and lane: ONE grouped query for every tenant, read in the same pass as
 * the lane figures (never a query per submit).
 * In:  nothing.
 * Out: tenant_id, lane, depth (steps `queued` or `running`); only pairs with open steps.
 * The open steps come through `job_steps_open_idx` (partial: open steps only), each joined to its
 * job through `jobs_pkey`, so the cost follows the open steps, which admission keeps bounded,
 * and not the ever-growing jobs table.
 */
const TENANT_DEPTHS_SQL = `
  SELECT j.tenant_id, s.lane, count(*)::int AS depth
    FROM api.job_steps s
    JOIN api.jobs j ON j.id = s.job_id
   WHERE s.status IN ('queued', 'running')
   GROUP BY j.tenant_id, s.lane`;

interface TenantDepthRow {
  tenant_id: string;
  lane: Lane;
  depth: number;
}

interface LaneFiguresRow {
  lane: Lane;
  depth: number;
  running: number;
  oldest_waiting_ms: string | number;
  finished: number;
}

/** Reads the queue figures of every lane, and each tenant's depth in it, from the api's step table. */
export class QueueStatsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async read(): Promise<Record<Lane, LaneStepFigures>> {
    const { lanes, tenants } = await withConnection(this.dataSource, async (sql) => ({
      lanes: await sql.rows<LaneFiguresRow>(LANE_FIGURES_SQL, [[...Lanes], THROUGHPUT_WINDOW_SECONDS]),
      tenants: await sql.rows<TenantDepthRow>(TENANT_DEPTHS_SQL),
    }));
    const tenantDepths = Object.fromEntries(Lanes.map((lane) => [lane, new Map<string, number>()])) as Record<Lane, Map<string, number>>;
    for (const row of tenants) tenantDepths[row.lane]?.set(row.tenant_id, Number(row.depth));
    return Object.fromEntries(
      lanes.map((row): [Lane, LaneStepFigures] => [
        row.lane,
        {
          depth: Number(row.depth),
          running: Number(row.running),
          oldestWaitingMs: Number(row.oldest_waiting_ms),
          throughputPerSecond: Number(row.finished) / THROUGHPUT_WINDOW_SECONDS,
          tenantDepths: tenantDepths[row.lane],
        },
      ]),
    ) as Record<Lane, LaneStepFigures>;
  }
}
