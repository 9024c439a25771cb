import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer } from 'kafkajs';
import { Pool } from 'pg';
import { DEFAULT_PARTITIONS } from '@longhaul/contracts';
import { createInboxTableSql, dropInboxAggregateIndexSql, fixKafkajsRequestQueue, inboxRetentionIndexSql, recordInInbox, type InboxEntry } from '@longhaul/messaging';
import { createOutboxTableSql, dropOutboxTableSql, OUTBOX_COLUMNS, outboxRelayPositionSql, outboxRow, type OutboxEvent } from '@longhaul/outbox';
import { sqlOn } from '@longhaul/persistence';
import { deleteTopicsIfPresent } from '../kafka-topics.cleanup';
import { CHAIN_STAGES, PEER_ENQUEUE_IN_FLIGHT, type PeerAdapter, type PeerHandler, type PeerPayload, type PeerStage } from './peer.adapter';
import { dropPeerSchema, PEER_SCHEMAS } from './peer-schema.cleanup';

/** As the peer tables name the reference row. */
export const RELAY_FLOOR_NAME = "Longhaul's relay alone (reference)";

const SCHEMA = PEER_SCHEMAS.relayFloor;

/** The stage's topic: the benchmark's own, made at start and deleted at stop. */
function relayFloorTopic(stage: PeerStage): string {
  return `longhaul-bench.relay-floor.${stage}`;
}


/**
 * Not a peer: the hops of Longhaul's architecture with nothing of the platform around them, so
 * the chain table shows what the relay itself costs beside what a Longhaul job costs. Each stage
 * is an outbox row in its own schema, relayed by the stack's Debezium connector to a topic of
 * its own, and consumed by a kafkajs consumer that, in ONE transaction per fetched batch of a
 * partition, writes the inbox rows of the batch (duplicates skipped), runs the handlers of the
 * new ones, and writes the outbox rows those handlers enqueued. Nothing else: no saga, no work
 * items, no job or step rows, no feed, no lifecycle events, no tracing.
 */
export class RelayFloorPeer implements PeerAdapter {
  readonly name = RELAY_FLOOR_NAME;
  readonly settings = [
    `Not a library: the relay of Longhaul's architecture on its own, as a reference for what its hops cost. A stage's job is a row of \`${SCHEMA}.outbox\` (the services' outbox DDL, in the connector's publication) naming the stage's topic; the stack's Debezium connector relays it to Kafka (${DEFAULT_PARTITIONS} partitions, keyed by the row's aggregate id).`,
    `Enqueue: one INSERT of an outbox row, committed on its own. Workers: one kafkajs consumer group per stage (\`partitionsConsumedConcurrently\` ${DEFAULT_PARTITIONS}, \`eachBatch\`); per fetched batch of a partition ONE transaction writes the batch's inbox rows (\`INSERT … ON CONFLICT DO NOTHING RETURNING\`), runs the handlers of the events not seen before, and inserts the outbox rows they enqueued, before the offsets are resolved. No saga, work items, job rows, feed, lifecycle events or tracing.`,
  ];
  readonly errors: string[] = [];
  /** The outbox rows a handler enqueues, written in its consumer's transaction. */
  private readonly pending = new AsyncLocalStorage<OutboxEvent[]>();
  private readonly consumers: Consumer[] = [];
  private readonly run = randomUUID().slice(0, 8);
  private pool: Pool | null = null;
  private kafka: Kafka | null = null;
  private admin: Admin | null = null;

  constructor(private readonly env: { databaseUrl: string; kafkaBrokers: string }) {}

  async start(): Promise<void> {
    // Every enqueue in flight and every consumed partition of the three stages has a connection.
    this.pool = new Pool({ connectionString: this.env.databaseUrl, max: PEER_ENQUEUE_IN_FLIGHT + CHAIN_STAGES.length * DEFAULT_PARTITIONS + 2, application_name: 'longhaul-bench-relay-floor' });
    this.pool.on('error', (error) => this.errors.push(error.message));
    fixKafkajsRequestQueue();
    this.kafka = new Kafka({ clientId: 'longhaul-bench-relay-floor', brokers: this.env.kafkaBrokers.split(','), logLevel: logLevel.NOTHING });
    this.admin = this.kafka.admin();
    await this.admin.connect();
    await this.removeTables();
    await deleteTopicsIfPresent(this.admin, CHAIN_STAGES.map(relayFloorTopic));
    await this.admin.createTopics({ topics: CHAIN_STAGES.map((stage) => ({ topic: relayFloorTopic(stage), numPartitions: DEFAULT_PARTITIONS })), waitForLeaders: true });
    for (const statement of [
      `CREATE SCHEMA "${SCHEMA}"`,
      ...createOutboxTableSql(SCHEMA),
      ...outboxRelayPositionSql(SCHEMA),
      // The services' inbox as their migrations leave it.
      ...createInboxTableSql(SCHEMA),
      ...dropInboxAggregateIndexSql(SCHEMA),
      ...inboxRetentionIndexSql(SCHEMA),
    ]) {
      await this.pool.query(statement);
    }
  }

  async enqueue(stage: PeerStage, payload: PeerPayload): Promise<void> {
    const event = stageEvent(stage, payload);
    const inHandler = this.pending.getStore();
    if (inHandler) inHandler.push(event);
    else await this.db().query(`INSERT INTO "${SCHEMA}".outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, outboxRow(event).values);
  }

  async work(stage: PeerStage, handler: PeerHandler): Promise<void> {
    if (!this.kafka) throw new Error('relay floor used before start()');
    const consumer = this.kafka.consumer({ groupId: this.groupOf(stage), sessionTimeout: 10_000, heartbeatInterval: 1_000 });
    await consumer.connect();
    await consumer.subscribe({ topics: [relayFloorTopic(stage)], fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: DEFAULT_PARTITIONS,
      eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
        const last = batch.messages.at(-1);
        if (!last) return;
        const events = batch.messages.map((m) => ({
          entry: { id: String(m.headers?.['id'] ?? ''), type: STAGE_EVENT_TYPE, key: String(m.key), topic: batch.topic, partition: batch.partition, offset: m.offset },
          payload: JSON.parse(String(m.value)) as PeerPayload,
        }));
        await this.inTransaction(events, handler);
        resolveOffset(last.offset);
        await heartbeat();
      },
    });
    this.consumers.push(consumer);
  }

  async stop(): Promise<void> {
    try {
      for (const consumer of this.consumers.splice(0)) await consumer.disconnect();
      if (this.admin) {
        await this.admin.deleteGroups(CHAIN_STAGES.map((stage) => this.groupOf(stage))).catch(() => undefined);
        await deleteTopicsIfPresent(this.admin, CHAIN_STAGES.map(relayFloorTopic));
        await this.admin.disconnect();
      }
      await this.removeTables();
    } finally {
      await this.pool?.end();
      this.pool = null;
      this.admin = null;
    }
  }

  private async inTransaction(events: ReadonlyArray<{ entry: InboxEntry; payload: PeerPayload }>, handler: PeerHandler): Promise<void> {
    const client = await this.db().connect();
    const sql = sqlOn(client);
    try {
      await client.query('BEGIN');
      const fresh = await recordInInbox(sql, SCHEMA, events.map((e) => e.entry));
      const enqueued: OutboxEvent[] = [];
      await this.pending.run(enqueued, () => Promise.all(events.filter((e) => fresh.has(e.entry.id)).map((e) => handler(e.payload))));
      if (enqueued.length > 0) {
        const rows = enqueued.map((event) => outboxRow(event).values);
        // The batch's rows in one statement, column by column.
        await sql.execute(
          `INSERT INTO "${SCHEMA}".outbox (${OUTBOX_COLUMNS})
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[])`,
          OUTBOX_COLUMNS.split(', ').map((_, column) => rows.map((row) => row[column])),
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      this.errors.push(error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      client.release();
    }
  }

  /** A fresh group per start, so no offset committed by an earlier run applies to the new topics. */
  private groupOf(stage: PeerStage): string {
    return `longhaul-bench.relay-floor.${stage}.${this.run}`;
  }

  /** Out of the publication first, then the schema: an interrupted run may have left both. */
  private async removeTables(): Promise<void> {
    for (const statement of dropOutboxTableSql(SCHEMA)) await this.db().query(statement);
    await dropPeerSchema(this.env.databaseUrl, SCHEMA);
  }

  private db(): Pool {
    if (!this.pool) throw new Error('relay floor used before start()');
    return this.pool;
  }
}

/** The outbox rows' event type; no consumer but this one reads it. */
const STAGE_EVENT_TYPE = 'ChainStage.v1';

/**
 * A stage's job as an outbox event, keyed by its chain, so a chain's three stages land on one
 * partition of each topic, as a job's events do.
 */
function stageEvent(stage: PeerStage, payload: PeerPayload): OutboxEvent {
  return { topic: relayFloorTopic(stage), type: STAGE_EVENT_TYPE, aggregateType: 'chain', aggregateId: `${payload.phase}:${payload.n}`, payload, traceparent: null };
}
