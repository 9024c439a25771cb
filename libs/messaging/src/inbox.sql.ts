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
