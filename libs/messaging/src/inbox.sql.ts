/**
 * DDL of a service's inbox: the idempotency table of every consumer.
 *
 * In:  the owning schema name.
 * Out: `<schema>.inbox`, one row per event id ever handled, written in the same transaction as
 *      the handler's effect. A redelivered event finds its row and is skipped, so an effect is
 *      applied once however often Kafka delivers the message. `seq` records handling order.
 */
export function createInboxTableSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".inbox (
       event_id     uuid PRIMARY KEY,
       event_type   text NOT NULL,
       aggregate_id text NOT NULL,
       topic        text NOT NULL,
       kafka_partition integer NOT NULL,
       kafka_offset bigint NOT NULL,
       seq          bigserial NOT NULL,
       received_at  timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX inbox_aggregate_idx ON "${schema}".inbox (aggregate_id, seq)`,
  ];
}

/**
 * DDL that lets the retention loop find a topic's oldest inbox rows without scanning the table;
 * each service applies it to its own schema in a migration of its own.
 *
 * In:  the owning schema name; `<schema>.inbox` exists ({@link createInboxTableSql}).
 * Out: an index on `(topic, received_at)`: `deleteExpiredInboxRows` deletes one topic's rows
 *      older than a cutoff, oldest first.
 */
export function inboxRetentionIndexSql(schema: string): string[] {
  return [`CREATE INDEX IF NOT EXISTS inbox_topic_received_at_idx ON "${schema}".inbox (topic, received_at)`];
}

/** Reverses {@link inboxRetentionIndexSql}. */
export function revertInboxRetentionIndexSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".inbox_topic_received_at_idx`];
}

/**
 * DDL that drops the inbox's `(aggregate_id, seq)` index; each service applies it to its own
 * schema in a migration of its own.
 *
 * In:  the owning schema name; `<schema>.inbox` exists ({@link createInboxTableSql}).
 * Out: the inbox with its primary key (the duplicate check) and the retention index. No statement
 *      of any service reads an inbox by job (`pg_stat_user_indexes` counted no scan of the index
 *      in any of the four schemas), yet every handled event added an entry to it: about six
 *      entries and WAL records per job. A look at what one service handled for a job still works,
 *      as a scan.
 */
export function dropInboxAggregateIndexSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".inbox_aggregate_idx`];
}

/** Reverses {@link dropInboxAggregateIndexSql}. */
export function restoreInboxAggregateIndexSql(schema: string): string[] {
  return [`CREATE INDEX IF NOT EXISTS inbox_aggregate_idx ON "${schema}".inbox (aggregate_id, seq)`];
}
