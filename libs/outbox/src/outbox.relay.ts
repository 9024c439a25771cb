/**
 * The relay that carries every service's outbox to Kafka: one Debezium connector on Kafka
 * Connect, reading the WAL through one logical replication slot. Both names are fixed by
 * `infra/debezium/longhaul-outbox.connector.json` (the file name is the connector's name, its
 * `slot.name` the slot's); a unit test holds them together.
 */
export const OutboxRelay = {
  /** The Kafka Connect connector, `GET /connectors/longhaul-outbox/status`. */
  connector: 'longhaul-outbox',
  /** The replication slot in `pg_replication_slots`. */
  slot: 'longhaul_outbox',
} as const;
