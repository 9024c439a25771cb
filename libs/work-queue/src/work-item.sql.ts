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
