/**
 * SQL of the relay-lag benchmark's own outbox: the relay measured without the api in front of it.
 *
 * In:  the shared database, its `longhaul_outbox` publication (the services' migrations make it)
 *      and the Debezium connector, whose `table.include.list` (`.*\.outbox`) takes every table
 *      named `outbox` in the publication.
 * Out: `bench_relay.outbox`, made by the same DDL as every service's outbox (the Debezium columns,
 *      `topic`, `traceparent`, the `wal_lsn` default) and added to the publication, so the
 *      connector relays its rows exactly as it relays the api's. Each probe row names the bench's
 *      own topic, so no Longhaul consumer ever sees one. {@link dropRelayProbeSql} takes the table
 *      out of the publication and drops the schema; run it before creating too, in case an
 *      interrupted run left them.
 */
import { createOutboxTableSql, dropOutboxTableSql, outboxRelayPositionSql } from '@longhaul/outbox';
import { RELAY_PROBE_EVENT_TYPE } from './relay-probe.payload';

/** The schema the probe outbox lives in; dropped at the end of the benchmark. */
export const RELAY_PROBE_SCHEMA = 'bench_relay';

/** Where the connector routes probe rows: the bench's own topic, created and deleted by the benchmark. */
export const RELAY_PROBE_TOPIC = 'longhaul-bench.relay-probe';

export function createRelayProbeSql(): string[] {
  return [`CREATE SCHEMA "${RELAY_PROBE_SCHEMA}"`, ...createOutboxTableSql(RELAY_PROBE_SCHEMA), ...outboxRelayPositionSql(RELAY_PROBE_SCHEMA)];
}

/** Safe to run when nothing of the probe exists (every statement checks or says IF EXISTS). */
export function dropRelayProbeSql(): string[] {
  return [...dropOutboxTableSql(RELAY_PROBE_SCHEMA), `DROP SCHEMA IF EXISTS "${RELAY_PROBE_SCHEMA}" CASCADE`];
}

/**
 * One probe row, committed on its own (autocommit) like the api's one-row-per-submit outbox
 * write. Parameters: `$1` id, `$2` aggregate id (the Kafka key the observer matches), `$3` the
 * payload JSON.
 */
export const INSERT_RELAY_PROBE_SQL = `INSERT INTO "${RELAY_PROBE_SCHEMA}".outbox (id, aggregatetype, aggregateid, type, payload, topic, traceparent)
  VALUES ($1, 'job', $2, '${RELAY_PROBE_EVENT_TYPE}', $3, '${RELAY_PROBE_TOPIC}', NULL)`;
