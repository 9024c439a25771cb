import type { Lane } from '@longhaul/contracts';
import { uuidv7, type Sql } from '@longhaul/persistence';
import type { Lease, NewWorkItem, PreClaim, WorkItem, WorkItemStatus } from './work-item';

/** How a run ended, as {@link WorkQueueRepository.finish} records it. */
export type WorkItemOutcome =
  | { status: 'succeeded'; result: unknown }
  | { status: 'failed'; error: unknown }
  /** A fast-lane run passed its budget; `error` says so (code `step_over_budget`). */
  | { status: 'demoted'; error: unknown };

/** One lane's open items, for the queue gauges. */
export interface LaneQueueFigures {
  lane: Lane;
  queued: number;
  running: number;
  /** Age in seconds of the oldest queued item; 0 when none is queued. */
  oldestQueuedSeconds: number;
}

interface WorkItemRow {
  id: string;
  dedupe_key: string;
  kind: string;
  job_id: string;
  lane: Lane;
  payload: Record<string, unknown>;
  traceparent: string | null;
  status: WorkItem['status'];
  claims: number;
  lease_owner: string | null;
  lease_token: string | null;
  deadline_ms: number;
}

function toWorkItem(row: WorkItemRow): WorkItem {
  return {
    id: row.id,
    dedupeKey: row.dedupe_key,
    kind: row.kind,
    jobId: row.job_id,
    lane: row.lane,
    payload: row.payload,
    traceparent: row.traceparent,
    status: row.status,
    claims: row.claims,
    leaseOwner: row.lease_owner,
    leaseToken: row.lease_token,
    deadlineMs: row.deadline_ms,
  };
}

/** SQL of the durable work queue in one schema. Every method runs on the caller's connection. */
export class WorkQueueRepository {
  private readonly table: string;

  constructor(schema: string) {
    this.table = `"${schema}".work_items`;
  }

  /**
   * Inserts an item unless one with the same dedupe key exists. Returns the item as written, or
   * null when it was not new. With `claim`, the item is written already claimed by that lease
   * (`running`, one claim), as {@link claim} would leave it: for a runner that reserved a slot
   * for it ({@link WorkQueueRunner.reserveSlot}) and runs it once the transaction commits.
   * A queued item is written announced (`announced_at` now) when `item.announced` says the
   * caller announces it in this transaction; otherwise {@link announceWaiting} finds it later.
   */
  async enqueue(sql: Sql, item: NewWorkItem, claim?: PreClaim): Promise<WorkItem | null> {
    const id = uuidv7();
    const inserted = await sql.execute(
      `INSERT INTO ${this.table} (id, dedupe_key, kind, job_id, lane, payload, traceparent, deadline_ms,
                                  status, claims, lease_owner, lease_token, lease_until, heartbeat_at, started_at, announced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
               CASE WHEN $9::text IS NULL THEN 'queued' ELSE 'running' END,
               CASE WHEN $9::text IS NULL THEN 0 ELSE 1 END,
               $9, $10::uuid,
               CASE WHEN $9::text IS NOT NULL THEN now() + make_interval(secs => $11::double precision / 1000) END,
               CASE WHEN $9::text IS NOT NULL THEN now() END,
               CASE WHEN $9::text IS NOT NULL THEN now() END,
               CASE WHEN $9::text IS NULL AND $12::boolean THEN now() END)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [id, item.dedupeKey, item.kind, item.jobId, item.lane, JSON.stringify(item.payload), item.traceparent, item.deadlineMs,
        claim?.owner ?? null, claim?.token ?? null, claim?.leaseMs ?? null, item.announced ?? false],
    );
    if (inserted !== 1) return null;
    return {
      id,
      dedupeKey: item.dedupeKey,
      kind: item.kind,
      jobId: item.jobId,
      lane: item.lane,
      payload: item.payload,
      traceparent: item.traceparent,
      status: claim ? 'running' : 'queued',
      claims: claim ? 1 : 0,
      leaseOwner: claim?.owner ?? null,
      leaseToken: claim?.token ?? null,
      deadlineMs: item.deadlineMs,
    };
  }

  /**
   * Claims up to `limit` of the oldest items of `lane` that are queued or whose lease has expired
   * (the worker died or hung), each under a fresh lease token, in ONE statement: a runner with
   * many free slots fills them in one round trip instead of one per slot. Only `lane`'s items are
   * looked at, so a lane's slots are never taken by another lane's work. `SKIP LOCKED` lets many
   * runners claim concurrently without waiting on each other. Oldest first.
   */
  async claim(sql: Sql, owner: string, leaseMs: number, lane: Lane, limit: number): Promise<WorkItem[]> {
    const rows = await sql.rows<WorkItemRow & { created_at: Date }>(
      `WITH next AS (
         SELECT id FROM ${this.table}
          WHERE lane = $3 AND (status = 'queued' OR (status = 'running' AND lease_until < now()))
          ORDER BY created_at
          LIMIT $4
          FOR UPDATE SKIP LOCKED
       )
       UPDATE ${this.table} w
          SET status = 'running', lease_owner = $1, lease_token = gen_random_uuid(),
              lease_until = now() + make_interval(secs => $2::double precision / 1000),
              heartbeat_at = now(), claims = w.claims + 1,
              started_at = coalesce(w.started_at, now()), updated_at = now()
         FROM next
        WHERE w.id = next.id
       RETURNING w.*`,
      [owner, leaseMs, lane, limit],
    );
    // UPDATE … RETURNING keeps no order: hand the items out oldest first, as they were picked.
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map(toWorkItem);
  }

  /**
   * Marks announced up to `limit` of the oldest items of `lane` that have waited in the queue at
   * least `waitedMs` since they were inserted, never claimed and never announced, and returns
   * them with when they were queued, for the caller to announce in the same transaction. `FOR
   * UPDATE SKIP LOCKED`: an item a runner is claiming right now is left to it (its start or
   * outcome will speak for it), and a claim waits for nothing. An item announced here and then
   * claimed is announced before its start, in commit order.
   */
  async announceWaiting(sql: Sql, lane: Lane, waitedMs: number, limit: number): Promise<Array<WorkItem & { queuedAt: Date }>> {
    const rows = await sql.rows<WorkItemRow & { created_at: Date }>(
      `WITH due AS (
         SELECT id FROM ${this.table}
          WHERE lane = $1 AND status = 'queued' AND claims = 0 AND announced_at IS NULL
            AND created_at <= now() - make_interval(secs => $2::double precision / 1000)
          ORDER BY created_at
          LIMIT $3
          FOR UPDATE SKIP LOCKED
       )
       UPDATE ${this.table} w SET announced_at = now()
         FROM due
        WHERE w.id = due.id
       RETURNING w.*`,
      [lane, waitedMs, limit],
    );
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map((row) => ({ ...toWorkItem(row), queuedAt: row.created_at }));
  }

  /**
   * Extends a lease. Returns false when the item is no longer ours to run: taken over, or no
   * longer `running` (cancelled); {@link status} tells which.
   */
  async heartbeat(sql: Sql, lease: Lease, leaseMs: number): Promise<boolean> {
    const updated = await sql.execute(
      `UPDATE ${this.table}
          SET lease_until = now() + make_interval(secs => $3::double precision / 1000),
              heartbeat_at = now(), updated_at = now()
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [lease.itemId, lease.token, leaseMs],
    );
    return updated === 1;
  }

  /** The item's current status, or null if it does not exist. */
  async status(sql: Sql, itemId: string): Promise<WorkItemStatus | null> {
    const [row] = await sql.rows<{ status: WorkItemStatus }>(`SELECT status FROM ${this.table} WHERE id = $1`, [itemId]);
    return row?.status ?? null;
  }

  /** Marks the item finished, only if `lease` still holds it. Returns whether it did. */
  async finish(sql: Sql, lease: Lease, outcome: WorkItemOutcome): Promise<boolean> {
    const updated = await sql.execute(
      `UPDATE ${this.table}
          SET status = $3, result = $4, error = $5, finished_at = now(), updated_at = now(),
              lease_until = NULL
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [
        lease.itemId,
        lease.token,
        outcome.status,
        outcome.status === 'succeeded' ? JSON.stringify(outcome.result) : null,
        outcome.status === 'succeeded' ? null : JSON.stringify(outcome.error),
      ],
    );
    return updated === 1;
  }

  /**
   * Marks several items succeeded in ONE statement, each only if its lease still holds it, and
   * returns the ids it marked. Rows are taken in id order, as every batch takes them.
   */
  async finishSucceeded(sql: Sql, finishes: ReadonlyArray<{ lease: Lease; result: unknown }>): Promise<Set<string>> {
    if (finishes.length === 0) return new Set();
    const sorted = [...finishes].sort((a, b) => (a.lease.itemId < b.lease.itemId ? -1 : a.lease.itemId > b.lease.itemId ? 1 : 0));
    const rows = await sql.rows<{ id: string }>(
      `UPDATE ${this.table} w
          SET status = 'succeeded', result = f.result, error = NULL, finished_at = now(), updated_at = now(),
              lease_until = NULL
         FROM (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::jsonb[]) AS f(id, token, result) ORDER BY id) AS f
        WHERE w.id = f.id AND w.lease_token = f.token AND w.status = 'running'
       RETURNING w.id`,
      [sorted.map((f) => f.lease.itemId), sorted.map((f) => f.lease.token), sorted.map((f) => JSON.stringify(f.result))],
    );
    return new Set(rows.map((row) => row.id.toLowerCase()));
  }

  /**
   * Cancels every open item of a job: queued ones are never claimed, and a running one's next
   * heartbeat fails (it is fenced on `status = 'running'`), which makes its runner abort it.
   * Returns how many items it cancelled.
   */
  async cancelJob(sql: Sql, jobId: string): Promise<number> {
    return sql.execute(
      `UPDATE ${this.table}
          SET status = 'cancelled', finished_at = now(), updated_at = now(), lease_until = NULL
        WHERE job_id = $1 AND status IN ('queued', 'running')`,
      [jobId],
    );
  }

  /** Hands an item back (graceful shutdown) so another runner may claim it at once. */
  async release(sql: Sql, lease: Lease): Promise<boolean> {
    const updated = await sql.execute(
      `UPDATE ${this.table}
          SET status = 'queued', lease_owner = NULL, lease_token = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [lease.itemId, lease.token],
    );
    return updated === 1;
  }

  /** Items waiting or running, for queue depth: of one lane, or of all when `lane` is omitted. */
  async depth(sql: Sql, lane?: Lane): Promise<{ queued: number; running: number }> {
    const [row] = await sql.rows<{ queued: string; running: string }>(
      `SELECT count(*) FILTER (WHERE status = 'queued') AS queued,
              count(*) FILTER (WHERE status = 'running') AS running
         FROM ${this.table} WHERE status IN ('queued', 'running') AND ($1::text IS NULL OR lane = $1)`,
      [lane ?? null],
    );
    return { queued: Number(row?.queued ?? 0), running: Number(row?.running ?? 0) };
  }

  /** Per lane with open items: how many are queued and running, and how old the oldest queued one is. */
  async laneFigures(sql: Sql): Promise<LaneQueueFigures[]> {
    const rows = await sql.rows<{ lane: Lane; queued: string; running: string; oldest_queued_s: string | number }>(
      `SELECT lane,
              count(*) FILTER (WHERE status = 'queued') AS queued,
              count(*) FILTER (WHERE status = 'running') AS running,
              COALESCE(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'queued')), 0)::float8 AS oldest_queued_s
         FROM ${this.table} WHERE status IN ('queued', 'running') GROUP BY lane`,
    );
    return rows.map((row) => ({
      lane: row.lane,
      queued: Number(row.queued),
      running: Number(row.running),
      oldestQueuedSeconds: Math.max(0, Number(row.oldest_queued_s)),
    }));
  }
}
