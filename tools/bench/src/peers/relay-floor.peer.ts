import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer } from 'kafkajs';
import { Pool } from 'pg';
import { DEFAULT_PARTITIONS } from '@longhaul/contracts';
import { fixKafkajsRequestQueue } from '@longhaul/messaging';
import { createOutboxTableSql, dropOutboxTableSql, outboxRelayPositionSql } from '@longhaul/outbox';
import { deleteTopicsIfPresent } from '../kafka-topics.cleanup';
import { CHAIN_STAGES, PEER_ENQUEUE_IN_FLIGHT, type PeerAdapter, type PeerHandler, type PeerPayload, type PeerStage } from './peer.adapter';
import { dropPeerSchema, PEER_SCHEMAS } from './peer-schema.cleanup';

/** As the peer tables name the reference row. */
export const RELAY_FLOOR_NAME = "Longhaul's relay alone (reference)";

const SCHEMA = PEER_SCHEMAS.relayFloor;

/** The stage's topic: the benchmark's own, made at start and deleted at stop. */
export function relayFloorTopic(stage: PeerStage): string {
  return `longhaul-bench.relay-floor.${stage}`;
}

/** The enqueues a handler made, written in its consumer's transaction. */
interface Pending {
  stage: PeerStage;
  payload: PeerPayload;
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
  private readonly pending = new AsyncLocalStorage<Pending[]>();
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
      // As the services' inboxes: keyed by event id, with the index their retention reads.
      `CREATE TABLE "${SCHEMA}".inbox (event_id uuid PRIMARY KEY, topic text NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE INDEX inbox_topic_received_at_idx ON "${SCHEMA}".inbox (topic, received_at)`,
    ]) {
      await this.pool.query(statement);
    }
  }

  async enqueue(stage: PeerStage, payload: PeerPayload): Promise<void> {
    const inHandler = this.pending.getStore();
    if (inHandler) {
      inHandler.push({ stage, payload });
      return;
    }
    await this.db().query(
      `INSERT INTO "${SCHEMA}".outbox (id, aggregatetype, aggregateid, type, payload, topic, traceparent) VALUES ($1, 'chain', $2, 'ChainStage.v1', $3, $4, NULL)`,
      [randomUUID(), chainKey(payload), JSON.stringify(payload), relayFloorTopic(stage)],
    );
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
        const events = batch.messages.map((m) => ({ id: String(m.headers?.['id'] ?? ''), payload: JSON.parse(String(m.value)) as PeerPayload }));
        await this.inTransaction(batch.topic, events, handler);
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

  private async inTransaction(topic: string, events: ReadonlyArray<{ id: string; payload: PeerPayload }>, handler: PeerHandler): Promise<void> {
    const client = await this.db().connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query<{ event_id: string }>(
        `INSERT INTO "${SCHEMA}".inbox (event_id, topic) SELECT unnest($1::uuid[]), $2 ON CONFLICT DO NOTHING RETURNING event_id`,
        [events.map((e) => e.id), topic],
      );
      const fresh = new Set(inserted.rows.map((row) => row.event_id));
      const enqueued: Pending[] = [];
      await this.pending.run(enqueued, () => Promise.all(events.filter((e) => fresh.has(e.id)).map((e) => handler(e.payload))));
      if (enqueued.length > 0) {
        await client.query(
          `INSERT INTO "${SCHEMA}".outbox (id, aggregatetype, aggregateid, type, payload, topic, traceparent)
           SELECT gen_random_uuid(), 'chain', k, 'ChainStage.v1', p, t, NULL FROM unnest($1::text[], $2::jsonb[], $3::text[]) AS e(k, p, t)`,
          [enqueued.map((e) => chainKey(e.payload)), enqueued.map((e) => JSON.stringify(e.payload)), enqueued.map((e) => relayFloorTopic(e.stage))],
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

/** The Kafka key of a chain's rows, so its three stages land on one partition of each topic, as a job's events do. */
function chainKey(payload: PeerPayload): string {
  return `${payload.phase}:${payload.n}`;
}
