/**
 * DDL of a worker's durable work queue.
 *
 * In:  the owning schema name.
 * Out: `<schema>.work_items`. A row is inserted by the Kafka handler in the transaction that
 *      records the request in the inbox (so the offset can be committed in milliseconds), then
 *      claimed by a runner under a lease. `lease_token` changes on every claim and fences the
 *      completion: a worker whose lease was taken over cannot complete the item.
 *      `dedupe_key` (job, step, attempt) makes a second request for the same attempt a no-op.
 */
export function createWorkItemsTableSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".work_items (
       id           uuid PRIMARY KEY,
       dedupe_key   text NOT NULL UNIQUE,
       kind         text NOT NULL,
       job_id       uuid NOT NULL,
       payload      jsonb NOT NULL,
       traceparent  text,
       status       text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
       claims       integer NOT NULL DEFAULT 0,
       lease_owner  text,
       lease_token  uuid,
       lease_until  timestamptz,
       heartbeat_at timestamptz,
       deadline_ms  integer NOT NULL,
       result       jsonb,
       error        jsonb,
       created_at   timestamptz NOT NULL DEFAULT now(),
       started_at   timestamptz,
       finished_at  timestamptz,
       updated_at   timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX work_items_claimable_idx ON "${schema}".work_items (created_at)
       WHERE status IN ('queued', 'running')`,
    `CREATE INDEX work_items_job_idx ON "${schema}".work_items (job_id)`,
  ];
}

/** Work item statuses the revision of {@link workItemsLanesSql} allows. */
const STATUSES_WITH_OUTCOMES = `'queued', 'running', 'succeeded', 'failed', 'cancelled', 'demoted'`;

/**
 * Second revision of `<schema>.work_items`: lanes and the outcomes a runner did not produce.
 *
 * In:  the owning schema name; a table made by {@link createWorkItemsTableSql}.
 * Out: a `lane` column (`fast` | `slow`, default `fast`; open items take the lane their request
 *      named, the best guess for rows written before lanes had their own consumers); the status
 *      check widened to `cancelled` and `demoted` (dropped and re-added under its default name
 *      `work_items_status_check`); the claim index replaced by one per lane, so a runner's
 *      `WHERE lane = $1 … ORDER BY created_at` walks only its own lane's open items.
 */
export function workItemsLanesSql(schema: string): string[] {
  const table = `"${schema}".work_items`;
  return [
    `ALTER TABLE ${table} ADD COLUMN lane text NOT NULL DEFAULT 'fast' CHECK (lane IN ('fast', 'slow'))`,
    `UPDATE ${table} SET lane = payload->>'lane'
      WHERE status IN ('queued', 'running') AND payload->>'lane' IN ('fast', 'slow')`,
    `ALTER TABLE ${table} DROP CONSTRAINT work_items_status_check,
       ADD CONSTRAINT work_items_status_check CHECK (status IN (${STATUSES_WITH_OUTCOMES}))`,
    `DROP INDEX IF EXISTS "${schema}".work_items_claimable_idx`,
    `CREATE INDEX work_items_claim_idx ON ${table} (lane, created_at) WHERE status IN ('queued', 'running')`,
  ];
}

/**
 * Reverses {@link workItemsLanesSql}. Items that ended `cancelled` or `demoted` become `failed`,
 * the nearest status the first revision knows, so the narrower check can be restored.
 */
export function revertWorkItemsLanesSql(schema: string): string[] {
  const table = `"${schema}".work_items`;
  return [
    `DROP INDEX IF EXISTS "${schema}".work_items_claim_idx`,
    `CREATE INDEX work_items_claimable_idx ON ${table} (created_at) WHERE status IN ('queued', 'running')`,
    `UPDATE ${table} SET status = 'failed' WHERE status IN ('cancelled', 'demoted')`,
    `ALTER TABLE ${table} DROP CONSTRAINT work_items_status_check,
       ADD CONSTRAINT work_items_status_check CHECK (status IN ('queued', 'running', 'succeeded', 'failed'))`,
    `ALTER TABLE ${table} DROP COLUMN lane`,
  ];
}

/**
 * Third revision of `<schema>.work_items`: the index the retention loop walks to find finished
 * items oldest first (`workItemHistory`). Partial, so an open item has no entry; an item gets one
 * when it finishes, an update that changes `status` and so is never HOT anyway (the claim
 * indexes are partial on `status`).
 */
export function workItemsFinishedIndexSql(schema: string): string[] {
  return [`CREATE INDEX work_items_finished_idx ON "${schema}".work_items (finished_at) WHERE finished_at IS NOT NULL`];
}

/** Undoes {@link workItemsFinishedIndexSql}. */
export function revertWorkItemsFinishedIndexSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".work_items_finished_idx`];
}

/**
 * Fourth revision of `<schema>.work_items`: when a queued item was announced (`StepQueued`).
 *
 * In:  the owning schema name; a table with the earlier revisions.
 * Out: `announced_at` (null until the worker has told the saga the item waits in its queue); the
 *      items that were queued before it, never claimed, take their `created_at` (they were
 *      announced as they were inserted); a partial index of the queued items nobody announced,
 *      by lane and age, which is all the announcing pass walks (`announceWaiting`). An item
 *      inserted already claimed, or announced as it was inserted, never has an entry.
 */
export function workItemsAnnouncedSql(schema: string): string[] {
  const table = `"${schema}".work_items`;
  return [
    `ALTER TABLE ${table} ADD COLUMN announced_at timestamptz`,
    `UPDATE ${table} SET announced_at = created_at WHERE status = 'queued' AND claims = 0`,
    `CREATE INDEX work_items_unannounced_idx ON ${table} (lane, created_at)
       WHERE status = 'queued' AND claims = 0 AND announced_at IS NULL`,
  ];
}

/** Undoes {@link workItemsAnnouncedSql}. */
export function revertWorkItemsAnnouncedSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".work_items_unannounced_idx`, `ALTER TABLE "${schema}".work_items DROP COLUMN IF EXISTS announced_at`];
}
