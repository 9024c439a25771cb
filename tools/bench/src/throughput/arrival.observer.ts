// A Kafka consumer of the benchmark's own that notes when each event of interest became readable:
// the first arrival of every (event type, key) on the topics it watches. Its group is its own and
// starts at the topics' ends, so it neither sees old events nor moves any Longhaul group.

import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { MessageHeaders } from '@longhaul/contracts';
import { wallNow } from './wall.clock';
import { fixKafkajsRequestQueue } from '@longhaul/messaging';

/** When one event reached the observer. */
export interface Arrival {
  /** Wall clock (ms since the epoch, sub-ms resolution) when the fetch that carried it was handed over. */
  at: number;
  /**
   * The record's timestamp (ms): what the producer set. Debezium's EventRouter sets it to the
   * change event's `ts_ms`, the moment the connector processed the row (no timestamp column is
   * configured), so `at − recordTimestamp` is the time from the connector to this consumer.
   */
  recordTimestamp: number;
}

/** Options of {@link ArrivalObserver}. */
export interface ArrivalObserverOptions {
  brokers: string;
  topics: readonly string[];
  /** Event types (the `eventType` header) to note; other records are read and dropped. */
  eventTypes: readonly string[];
  /** Names the group: `longhaul-bench-<label>-<uuid>`. */
  label: string;
}

/** How long {@link ArrivalObserver.start} waits for the group to be joined and its partitions assigned. */
const JOIN_TIMEOUT_MS = 60_000;

/**
 * Records `(event type, key) → first arrival`. Arrival is stamped once per fetched batch, when
 * kafkajs hands the batch over: records of one fetch became readable by then, and a batch of a
 * partition is handed over as soon as it is decoded (partitions are processed concurrently), so
 * the stamp lags the broker by one fetch round trip on the loopback interface at most.
 */
export class ArrivalObserver {
  private readonly kafka: Kafka;
  private readonly groupId: string;
  private consumer: Consumer | null = null;
  private readonly arrivals = new Map<string, Map<string, Arrival>>();
  private readonly wanted: Set<string>;

  constructor(private readonly options: ArrivalObserverOptions) {
    // The bench's clients share the services' two cores: no idle 1 ms timer loop (see the fix).
    fixKafkajsRequestQueue();
    this.kafka = new Kafka({ clientId: `longhaul-bench-${options.label}`, brokers: options.brokers.split(','), logLevel: logLevel.NOTHING });
    this.groupId = `longhaul-bench-${options.label}-${randomUUID()}`;
    this.wanted = new Set(options.eventTypes);
    for (const type of options.eventTypes) this.arrivals.set(type, new Map());
  }

  /**
   * Joins the group at the topics' ends and resolves once partitions are assigned. Records
   * written before the first fetch may still be missed, so callers confirm the observer with a
   * warm-up that waits for its own events.
   */
  async start(): Promise<void> {
    const consumer = this.kafka.consumer({ groupId: this.groupId, maxWaitTimeInMs: 500, sessionTimeout: 30_000, heartbeatInterval: 3_000 });
    this.consumer = consumer;
    let joined = false;
    consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
    await consumer.connect();
    for (const topic of this.options.topics) await consumer.subscribe({ topic, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: 6,
      eachBatch: async ({ batch }) => {
        const at = wallNow();
        for (const message of batch.messages) {
          const type = message.headers?.[MessageHeaders.eventType]?.toString();
          const key = message.key?.toString('utf8');
          if (!type || !key || !this.wanted.has(type)) continue;
          const byKey = this.arrivals.get(type)!;
          if (!byKey.has(key)) byKey.set(key, { at, recordTimestamp: Number(message.timestamp) });
        }
      },
    });
    const deadline = Date.now() + JOIN_TIMEOUT_MS;
    while (!joined) {
      if (Date.now() > deadline) throw new Error(`the bench's Kafka consumer did not join its group within ${JOIN_TIMEOUT_MS / 1000} s`);
      await delay(50);
    }
  }

  /** The first arrival of `type` with `key`, if it came. */
  arrival(type: string, key: string): Arrival | undefined {
    return this.arrivals.get(type)?.get(key);
  }

  /** How many of `keys` have an arrival of `type`. */
  countArrived(type: string, keys: readonly string[]): number {
    const byKey = this.arrivals.get(type);
    return byKey ? keys.reduce((n, key) => n + (byKey.has(key) ? 1 : 0), 0) : 0;
  }

  /**
   * Waits until every key in `keys` has an arrival of `type`, or `timeoutMs` passes, or `signal`
   * aborts; resolves with how many are still missing.
   */
  async waitForAll(type: string, keys: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const missing = keys.length - this.countArrived(type, keys);
      if (missing === 0 || Date.now() > deadline || signal?.aborted) return missing;
      await delay(50);
    }
  }

  /** Leaves and deletes its group (it committed nothing, so nothing of it stays behind). */
  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    if (!consumer) return;
    await consumer.disconnect();
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]).catch(() => undefined);
    } finally {
      await admin.disconnect();
    }
  }
}
