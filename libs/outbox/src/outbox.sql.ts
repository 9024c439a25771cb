/**
 * DDL of a service's outbox table, for that service's migration.
 *
 * In:  the owning schema name.
 * Out: statements that create `<schema>.outbox` in Debezium's outbox shape (id, aggregatetype,
 *      aggregateid, type, payload) plus what Longhaul routes and traces by (topic, traceparent),
 *      and add the table to the `longhaul_outbox` publication that the one Debezium connector
 *      reads (the publication is created here too if the stack has not made it yet).
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
         CREATE PUBLICATION longhaul_outbox;
       END IF;
       ALTER PUBLICATION longhaul_outbox ADD TABLE "${schema}".outbox;
     END $$`,
  ];
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
