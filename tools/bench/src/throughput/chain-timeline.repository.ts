// What the services wrote about each job of a run, read back after it as one row of instants per
// job: the end-to-end benchmark's per-stage breakdown.

import type { Pool } from 'pg';

/**
 * The instants the services recorded for one job, in ms since the epoch (µs resolution), null
 * where a row or column is missing. Every one is Postgres `now()` in the transaction that wrote
 * it, i.e. the START of that transaction (it commits a few ms later).
 */
export interface ChainTimeline {
  jobId: string;
  status: string;
  /** Attempts of both steps together (2 when nothing was retried). */
  attempts: number;
  /** `api.step_attempts` of the step's latest attempt: the api's view (dispatched by it; the rest as the saga learned of them). */
  transcode: AttemptInstants;
  thumbnail: AttemptInstants;
  /** The step's `work_items` row in the worker's own schema: taken in from Kafka, claimed by a runner, finished. */
  transcoder: WorkItemInstants;
  thumbnailer: WorkItemInstants;
  /** `api.jobs.finished_at`: the saga's transaction that completed the job (and wrote `JobCompleted.v1`). */
  jobFinished: number | null;
  /** `notifier.received_events.received_at` of the job's `JobCompleted.v1`: the notifier's transaction that recorded it. */
  notifierRecorded: number | null;
}

export interface AttemptInstants {
  dispatched: number | null;
  queued: number | null;
  started: number | null;
  finished: number | null;
}

export interface WorkItemInstants {
  taken: number | null;
  started: number | null;
  finished: number | null;
}

/**
 * In:  job ids. Out: one row per job found. Each lateral join is an index probe: step_attempts by
 * its primary key, work_items by `work_items_job_idx`, received_events by `received_events_job_idx`.
 */
const TIMELINE_SQL = `
  SELECT j.id AS job_id, j.status,
         (SELECT count(*) FROM api.step_attempts a WHERE a.job_id = j.id)::int AS attempts,
         ${epochMs('ta.dispatched_at')} AS ta_dispatched, ${epochMs('ta.queued_at')} AS ta_queued,
         ${epochMs('ta.started_at')} AS ta_started, ${epochMs('ta.finished_at')} AS ta_finished,
         ${epochMs('tb.dispatched_at')} AS tb_dispatched, ${epochMs('tb.queued_at')} AS tb_queued,
         ${epochMs('tb.started_at')} AS tb_started, ${epochMs('tb.finished_at')} AS tb_finished,
         ${epochMs('tw.taken')} AS tw_taken, ${epochMs('tw.started')} AS tw_started, ${epochMs('tw.finished')} AS tw_finished,
         ${epochMs('bw.taken')} AS bw_taken, ${epochMs('bw.started')} AS bw_started, ${epochMs('bw.finished')} AS bw_finished,
         ${epochMs('j.finished_at')} AS job_finished,
         ${epochMs('n.recorded')} AS notifier_recorded
    FROM api.jobs j
    LEFT JOIN LATERAL (SELECT * FROM api.step_attempts a WHERE a.job_id = j.id AND a.step = 'transcode' ORDER BY a.attempt DESC LIMIT 1) ta ON true
    LEFT JOIN LATERAL (SELECT * FROM api.step_attempts a WHERE a.job_id = j.id AND a.step = 'thumbnail' ORDER BY a.attempt DESC LIMIT 1) tb ON true
    LEFT JOIN LATERAL (SELECT min(w.created_at) AS taken, min(w.started_at) AS started, max(w.finished_at) AS finished
                         FROM transcoder.work_items w WHERE w.job_id = j.id) tw ON true
    LEFT JOIN LATERAL (SELECT min(w.created_at) AS taken, min(w.started_at) AS started, max(w.finished_at) AS finished
                         FROM thumbnailer.work_items w WHERE w.job_id = j.id) bw ON true
    LEFT JOIN LATERAL (SELECT min(r.received_at) AS recorded FROM notifier.received_events r
                        WHERE r.job_id = j.id AND r.event_type = 'JobCompleted.v1') n ON true
   WHERE j.id = ANY($1::uuid[])`;

function epochMs(column: string): string {
  return `(extract(epoch FROM ${column}) * 1000)::float8`;
}

type TimelineRow = Record<string, number | null> & { job_id: string; status: string; attempts: number };

/** Reads the timelines of `jobIds`, a few thousand at a time. */
export async function readChainTimelines(pool: Pool, jobIds: readonly string[]): Promise<ChainTimeline[]> {
  const out: ChainTimeline[] = [];
  for (let i = 0; i < jobIds.length; i += 2000) {
    const { rows } = await pool.query<TimelineRow>(TIMELINE_SQL, [jobIds.slice(i, i + 2000)]);
    for (const r of rows) {
      out.push({
        jobId: r.job_id,
        status: r.status,
        attempts: r.attempts,
        transcode: { dispatched: r['ta_dispatched'] ?? null, queued: r['ta_queued'] ?? null, started: r['ta_started'] ?? null, finished: r['ta_finished'] ?? null },
        thumbnail: { dispatched: r['tb_dispatched'] ?? null, queued: r['tb_queued'] ?? null, started: r['tb_started'] ?? null, finished: r['tb_finished'] ?? null },
        transcoder: { taken: r['tw_taken'] ?? null, started: r['tw_started'] ?? null, finished: r['tw_finished'] ?? null },
        thumbnailer: { taken: r['bw_taken'] ?? null, started: r['bw_started'] ?? null, finished: r['bw_finished'] ?? null },
        jobFinished: r['job_finished'] ?? null,
        notifierRecorded: r['notifier_recorded'] ?? null,
      });
    }
  }
  return out;
}

/** How many of `jobIds` the notifier has recorded the `JobCompleted.v1` of. */
export async function countNotifierRecorded(pool: Pool, jobIds: readonly string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(DISTINCT job_id)::int AS n FROM notifier.received_events WHERE event_type = 'JobCompleted.v1' AND job_id = ANY($1::uuid[])`,
    [jobIds],
  );
  return rows[0]?.n ?? 0;
}

/** Jobs of `jobIds` by status, e.g. `{ completed: 2000 }`. */
export async function countByStatus(pool: Pool, jobIds: readonly string[]): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM api.jobs WHERE id = ANY($1::uuid[]) GROUP BY status`, [jobIds]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
