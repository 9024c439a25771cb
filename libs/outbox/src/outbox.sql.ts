/**
 * DDL of a service's outbox table, for that service's migration.
 *
 * In:  the owning schema name.
 * Out: statements that create `<schema>.outbox` in Debezium's outbox shape (id, aggregatetype,
 *      aggregateid, type, payload) plus what Longhaul routes and traces by (topic, traceparent),
 *      and add the table to the `longhaul_outbox` publication that the one Debezium connector
 *      reads (the publication is created here too if the stack has not made it yet, streaming
 *      inserts only: {@link outboxPublishInsertsOnlySql}).
 *
 * Rows are written in the transaction that changes state and read by Debezium from the WAL;
 * no service ever reads its own outbox.
 */
export function createOutboxTableSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".outbox (
       id            uuid PRIMARY KEY,
       aggregatetype text NOT NULL,
       aggregateid   text NOT NULL,
       type          text NOT NULL,
       payload       jsonb NOT NULL,
       topic         text NOT NULL,
       traceparent   text,
       created_at    timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX outbox_created_at_idx ON "${schema}".outbox (created_at)`,
    `DO $$
     BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = 'longhaul_outbox') THEN
         CREATE PUBLICATION longhaul_outbox WITH (publish = 'insert');
       END IF;
       ALTER PUBLICATION longhaul_outbox ADD TABLE "${schema}".outbox;
     END $$`,
  ];
}

/**
 * DDL that makes the relay's publication stream inserts only.
 *
 * In:  the `longhaul` database; the publication `longhaul_outbox` may exist or not.
 * Out: when it exists, it publishes inserts, not updates, deletes or truncates.
 *
 * Why: an outbox row is only ever inserted and, once relayed and past `OUTBOX_RETENTION_MS`,
 * deleted by the retention loop. With Postgres's default (`insert, update, delete, truncate`),
 * each of those deletes was also decoded by the walsender, sent to Debezium, turned into a change
 * event and then dropped by the EventRouter, which routes creates only: in steady state as many
 * delete events crossed the relay as outbox rows were written, for nothing reaching Kafka. A
 * publication that does not publish deletes also needs no replica identity for them.
 */
export function outboxPublishInsertsOnlySql(): string[] {
  return [publishSql('insert')];
}

/** Reverses {@link outboxPublishInsertsOnlySql}: Postgres's default, every kind of change. */
export function revertOutboxPublishInsertsOnlySql(): string[] {
  return [publishSql('insert, update, delete, truncate')];
}

function publishSql(actions: string): string {
  return `DO $$
     BEGIN
       IF EXISTS (SELECT 1 FROM pg_publication WHERE pubname = 'longhaul_outbox') THEN
         ALTER PUBLICATION longhaul_outbox SET (publish = '${actions}');
       END IF;
     END $$`;
}

/** Reverses {@link createOutboxTableSql}. */
export function dropOutboxTableSql(schema: string): string[] {
  return [
    `DO $$
     BEGIN
       IF EXISTS (SELECT 1 FROM pg_publication_tables WHERE pubname = 'longhaul_outbox'
                  AND schemaname = '${schema}' AND tablename = 'outbox') THEN
         ALTER PUBLICATION longhaul_outbox DROP TABLE "${schema}".outbox;
       END IF;
     END $$`,
    `DROP TABLE IF EXISTS "${schema}".outbox`,
  ];
}

/**
 * DDL that lets a service tell which of its outbox rows the relay has not confirmed yet, for the
 * relay-lag metric; each service's migration applies it to its own schema.
 *
 * In:  the owning schema name; `<schema>.outbox` exists ({@link createOutboxTableSql}).
 * Out: `<schema>.outbox.wal_lsn bigint`: the WAL insert position when the row was inserted, in
 *      bytes from `0/0` (`pg_current_wal_insert_lsn()`), filled by the column default so the
 *      insert statement and its cost stay as they were; NULL on rows written before this
 *      migration, which count as relayed. A partial index on it keeps "the oldest row past the
 *      relay's confirmed position" one index probe away, however large the table grows.
 *
 * The column is a plain `bigint`, not `pg_lsn`: the connector maps every column of the row it
 * relays, and `bigint` is a type every Debezium release knows. The EventRouter ignores it either
 * way: the message value is the `payload` column and the headers are the columns named in
 * `table.fields.additional.placement` (`infra/debezium/longhaul-outbox.connector.json`).
 */
export function outboxRelayPositionSql(schema: string): string[] {
  return [
    // Added without a default first: a volatile default would rewrite the table and stamp every
    // old row with the position of the migration, as if none of them had been relayed yet.
    `ALTER TABLE "${schema}".outbox ADD COLUMN wal_lsn bigint`,
    `ALTER TABLE "${schema}".outbox ALTER COLUMN wal_lsn SET DEFAULT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint`,
    `CREATE INDEX outbox_wal_lsn_idx ON "${schema}".outbox (wal_lsn) WHERE wal_lsn IS NOT NULL`,
  ];
}

/** Reverses {@link outboxRelayPositionSql}. */
export function revertOutboxRelayPositionSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".outbox_wal_lsn_idx`, `ALTER TABLE "${schema}".outbox DROP COLUMN IF EXISTS wal_lsn`];
}
