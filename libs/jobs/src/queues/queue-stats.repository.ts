import { Lanes, type Lane } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { FinishedStepsWindow } from './finished-steps.window';
import type { LaneStepFigures } from './queue-sample';

/** Throughput counts the steps finished in this many seconds, divided by it. */
export const THROUGHPUT_WINDOW_SECONDS = 60;

/**
 * Per-lane queue figures of the open steps from `api.job_steps`, one row per lane given (zeros
 * for an idle lane).
 * In:  $1 text[] lanes.
 * Out: lane, depth (queued, dispatched or not), running, oldest_waiting_ms (age of the oldest
 *      queued attempt whose due time has come: since it was dispatched, else since it fell due,
 *      else since it was queued).
 * Open steps are read through `job_steps_open_idx`. Ages are computed with the database's clock,
 * the one that wrote the timestamps.
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
  )
  SELECT l.lane,
         coalesce(o.depth, 0)::int   AS depth,
         coalesce(o.running, 0)::int AS running,
         coalesce(greatest(0, floor(extract(epoch FROM now() - o.waiting_since) * 1000)), 0)::bigint AS oldest_waiting_ms
    FROM unnest($1::text[]) AS l (lane)
    LEFT JOIN open_steps o ON o.lane = l.lane`;

/**
 * Steps finished since a moment, per lane and whole second, through `job_steps_finished_idx`.
 * In:  $1 float8 Unix seconds to read from (null: the whole window), $2 the window with its
 *      settle margin, in seconds: the read never goes back further than that.
 * Out: now_s and since_s (the database's now and the moment read from, Unix seconds, on every
 *      row), lane, second (Unix), finished; one row with lane null when none finished.
 */
const FINISHED_SECONDS_SQL = `
  WITH bounds AS (
    SELECT now() AS at,
           greatest(now() - make_interval(secs => $2), coalesce(to_timestamp($1::float8), '-infinity'::timestamptz)) AS since
  )
  SELECT extract(epoch FROM b.at)::float8 AS now_s, extract(epoch FROM b.since)::float8 AS since_s,
         f.lane, f.second, f.finished
    FROM bounds b
    LEFT JOIN LATERAL (
      SELECT lane, floor(extract(epoch FROM finished_at))::bigint AS second, count(*)::int AS finished
        FROM api.job_steps
       WHERE finished_at >= b.since
       GROUP BY 1, 2
    ) f ON true`;

/** Seconds already counted that each read counts again (see `FinishedStepsWindowOptions.settleSeconds`). */
export const FINISHED_SETTLE_SECONDS = 5;

/**
 * Open steps per tenant and lane: ONE grouped query for every tenant, read in the same pass as
 * the lane figures (never a query per submit).
 * In:  nothing.
 * Out: tenant_id, lane, depth (steps `queued` or `running`); only pairs with open steps.
 * The open steps come through `job_steps_open_idx` (partial: open steps only), and each finds
 * its job's tenant through `jobs_pkey`, so the cost follows the open steps, which admission keeps
 * bounded, and not the ever-growing jobs table. The tenant is a scalar subquery rather than a
 * join on purpose: as a join, the planner hashed the open steps and read every row of `api.jobs`
 * (a sequential scan, or all of `jobs_tenant_created_idx`) to probe them, whenever its estimate of
 * the open steps ran high, as it does on statistics taken while a backlog was queued. Under the
 * benchmark's load that read 1 000–1 350 pages a sample for 17–21 open steps, 6–16 ms, and it
 * grows with every job retention keeps. A subquery per open step cannot take that plan.
 */
const TENANT_DEPTHS_SQL = `
  SELECT (SELECT j.tenant_id FROM api.jobs j WHERE j.id = s.job_id) AS tenant_id, s.lane, count(*)::int AS depth
    FROM api.job_steps s
   WHERE s.status IN ('queued', 'running')
   GROUP BY 1, 2`;

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
}

interface FinishedSecondRow {
  now_s: number;
  since_s: number;
  lane: string | null;
  second: string | number | null;
  finished: number | null;
}

/**
 * Reads the queue figures of every lane, and each tenant's depth in it, from the api's step table.
 * The throughput is counted over a sliding window kept between reads ({@link FinishedStepsWindow}),
 * so one instance serves one sampler.
 */
export class QueueStatsRepository {
  private readonly finishedWindow = new FinishedStepsWindow({ windowSeconds: THROUGHPUT_WINDOW_SECONDS, settleSeconds: FINISHED_SETTLE_SECONDS });

  constructor(private readonly dataSource: DataSource) {}

  /** `withTenants` false: the tenants' depths are not read, and every lane carries an empty map. */
  async read(withTenants = true): Promise<Record<Lane, LaneStepFigures>> {
    // The statements issued together on one pipelining connection: one round trip.
    const [lanes, tenants, finished] = await withConnection(this.dataSource, (sql) =>
      Promise.all([
        sql.rows<LaneFiguresRow>(LANE_FIGURES_SQL, [[...Lanes]]),
        withTenants ? sql.rows<TenantDepthRow>(TENANT_DEPTHS_SQL) : Promise.resolve([]),
        sql.rows<FinishedSecondRow>(FINISHED_SECONDS_SQL, [this.finishedWindow.readFrom(), THROUGHPUT_WINDOW_SECONDS + FINISHED_SETTLE_SECONDS]),
      ]),
    );
    const now = Number(finished[0]!.now_s);
    this.finishedWindow.record(
      now,
      Number(finished[0]!.since_s),
      finished.flatMap((row) => (row.lane === null ? [] : [{ lane: row.lane, second: Number(row.second), finished: Number(row.finished) }])),
    );
    const tenantDepths = Object.fromEntries(Lanes.map((lane) => [lane, new Map<string, number>()])) as Record<Lane, Map<string, number>>;
    for (const row of tenants) tenantDepths[row.lane]?.set(row.tenant_id, Number(row.depth));
    return Object.fromEntries(
      lanes.map((row): [Lane, LaneStepFigures] => [
        row.lane,
        {
          depth: Number(row.depth),
          running: Number(row.running),
          oldestWaitingMs: Number(row.oldest_waiting_ms),
          throughputPerSecond: this.finishedWindow.finished(row.lane, now) / THROUGHPUT_WINDOW_SECONDS,
          tenantDepths: tenantDepths[row.lane],
        },
      ]),
    ) as Record<Lane, LaneStepFigures>;
  }
}
