import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Registry } from 'prom-client';
import type { EventType } from '@longhaul/contracts';
import { DEFAULT_PARTITIONS, deadLetterTopic, ErrorCodes, isEventType, MessageHeaders } from '@longhaul/contracts';
import { inTransaction, type DataSource, type Sql } from '@longhaul/persistence';
import { contextFromTraceparent, SpanAttributes, SpanNames, type Logger } from '@longhaul/telemetry';
import { publishDeadLetter, type DeadLetterReason } from './dead-letter.publisher';
import { FetchGatherer } from './fetch.gatherer';
import { recordInInbox } from './inbox.repository';
import type { InboundEvent } from './inbound-event';
import { splitByKey } from './key-lanes.policy';
import { decodeMessage, headerString, type DecodeResult } from './message.decoder';
import { messagingMetrics, type MessagingMetrics } from './messaging.metrics';
import { ResolvedOffsets } from './resolved-offsets';
import { ensureTopics } from './topic.provisioner';

/** Handles one event inside the transaction that also records it in the inbox. */
export type EventHandler<T extends EventType = EventType> = (sql: Sql, event: InboundEvent<T>) => Promise<void>;

/** Options of {@link EventConsumer}. */
export interface EventConsumerOptions {
  kafka: Kafka;
  /** Consumer group: one per service and purpose (e.g. `longhaul.transcoder`). */
  groupId: string;
  topics: string[];
  dataSource: DataSource;
  /** Schema of the service's inbox. */
  schema: string;
  /**
   * Handlers by event type. An event of another known type is skipped unparsed, with nothing
   * written: with no effect to guard, it needs no inbox row (and a batch of such events, no
   * transaction).
   */
  handlers: Partial<{ [T in EventType]: EventHandler<T> }>;
  /**
   * Runs in each transaction before the first handler, with the events of a handled type, in
   * order: for work that costs one statement per batch instead of one per event, such as locking,
   * in one fixed order, the rows the handlers will change. Its statements are issued right behind
   * the inbox statement, without waiting for its answer (one round trip for both on a pipelining
   * connection), so the events may include some the inbox then finds to be duplicates, whose
   * handlers do not run. @defaultValue none
   */
  beforeHandling?: (sql: Sql, events: readonly InboundEvent[]) => Promise<void>;
  logger: Logger;
  /**
   * Partitions handled in parallel (order is kept within a partition). Each handler is a few
   * round trips to Postgres, so a consumer is bound by their latency, not by CPU: with one
   * partition per handler it keeps up with every partition a topic has. @defaultValue
   * `DEFAULT_PARTITIONS` (6)
   */
  partitionsConsumedConcurrently?: number;
  /**
   * Most events handled in one transaction. A partition's fetched messages are handled in
   * transactions of up to this many events, each event with its own inbox row, and the offsets
   * are resolved once the transaction commits: a busy consumer pays a transaction's begin and
   * commit (with its WAL flush) once per batch, not once per event. A batch that fails rolls
   * back whole and its events are handled again one by one, each in its own transaction, so a
   * poison message is still isolated. Under light load batches are single events.
   * @defaultValue 64
   */
  maxBatchSize?: number;
  /**
   * Transactions the events of one fetch are split into by message key (the job id), run at
   * once: a key's events stay in one of them, in order, so per-job order holds while events of
   * different jobs are handled side by side. The chunks every partition of a fetch hands over at
   * once are handled together ({@link FetchGatherer}), split this way; a chunk handled on its
   * own (no other partition had events, or the joint transactions failed) is split the same way.
   * Each transaction takes a connection of its own, so the pool must allow partitions × this
   * many. @defaultValue 1
   */
  keyConcurrency?: number;
  /**
   * Times one message's handler may fail, while the database answers, before the message is
   * dead-lettered as poison (`handler_failed`) so its partition moves on. @defaultValue 5
   */
  maxHandlerAttempts?: number;
  /**
   * The process's metrics registry: dead-lettered messages are counted there, and the group is
   * listed for lag sampling while the consumer runs. @defaultValue a private registry nobody serves
   */
  registry?: Registry;
}

/**
 * Longest time resolved offsets wait to be committed to Kafka. It bounds what a restarted or
 * rebalanced consumer reads again (the inbox makes those reads no-ops) and how far the group's
 * committed lag trails what has been handled.
 */
export const OFFSET_COMMIT_INTERVAL_MS = 500;

/** Events handled in one transaction at most, unless configured otherwise. */
export const DEFAULT_MAX_BATCH_SIZE = 64;

type Outcome = 'handled' | 'duplicate' | 'skipped';

/** A message of a batch that decoded to an event, and where it was read. */
interface DecodedMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
  event: InboundEvent;
}

/** Counters a consumer keeps, for logs and metrics. */
export interface ConsumerStats {
  handled: number;
  duplicatesSuppressed: number;
  deadLettered: number;
  skipped: number;
}

/**
 * The transport adapter of a consumer: reads Kafka, continues the producer's trace, routes
 * messages that cannot be decoded to `<topic>.dlq`, and hands each good event to its handler in
 * ONE transaction with the inbox row. Offsets are resolved only after that transaction commits,
 * and committed at most every {@link OFFSET_COMMIT_INTERVAL_MS}, so a crash replays what was not
 * committed and the inbox turns the replay into a no-op.
 *
 * Handlers must be quick (a few SQL statements): kafkajs heartbeats only between messages, so
 * long work goes to the durable work queue instead.
 */
export class EventConsumer {
  readonly stats: ConsumerStats = { handled: 0, duplicatesSuppressed: 0, deadLettered: 0, skipped: 0 };
  private consumer: Consumer | null = null;
  private producer: Producer | null = null;
  private readonly log: Logger;
  private readonly tracer = trace.getTracer('longhaul.messaging');
  /** Failed handling attempts per message (`topic/partition/offset`), for poison isolation. */
  private readonly failures = new Map<string, number>();
  private readonly metrics: MessagingMetrics;
  /** What was handled and not yet committed to Kafka, committed when the consumer leaves. */
  private readonly resolvedOffsets = new ResolvedOffsets();
  /** Batches being handled now; stopping waits for them before the last commit. */
  private readonly handling = new Set<Promise<void>>();
  /** The chunks the partitions of one fetch hand over at once, handled together. */
  private readonly gatherer = new FetchGatherer<DecodedMessage>((events) => this.handleGathered(events));

  constructor(private readonly options: EventConsumerOptions) {
    this.log = options.logger.child({ component: 'consumer', group: options.groupId });
    this.metrics = messagingMetrics(options.registry ?? new Registry());
  }

  async start(): Promise<void> {
    const { kafka, topics, groupId } = this.options;
    await ensureTopics(kafka, [...topics, ...topics.map(deadLetterTopic)]);
    this.producer = kafka.producer({ allowAutoTopicCreation: true });
    await this.producer.connect();
    this.consumer = kafka.consumer({
      groupId,
      // A member that died (SIGKILL) holds its partitions until its session times out, and a
      // rebalance waits for every member: short timeouts bound how long its partitions stand
      // still. Handlers take milliseconds, so a 1 s heartbeat between messages is always met.
      sessionTimeout: 10_000,
      rebalanceTimeout: 20_000,
      heartbeatInterval: 1_000,
      // A handler that keeps failing (database down) must not kill the service: kafkajs retries,
      // then restarts the consumer, which resumes from the last committed offset.
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 10_000, restartOnFailure: async () => true },
    });
    await this.consumer.connect();
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => this.resolvedOffsets.assigned(payload.memberAssignment));
    await this.consumer.subscribe({ topics, fromBeginning: true });
    await this.consumer.run({
      // Offsets are committed from onBatch, at most every OFFSET_COMMIT_INTERVAL_MS, rather than by
      // kafkajs after every batch: a commit is a broker request, and at a few events per batch
      // they were as many as the fetches. What a crash or a rebalance leaves uncommitted is
      // delivered again, and the inbox turns it into duplicates that do nothing.
      autoCommit: false,
      autoCommitInterval: OFFSET_COMMIT_INTERVAL_MS,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS,
      // Offsets are resolved only for events whose transaction committed.
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.track(this.onBatch(payload)),
    });
    this.metrics.consuming(groupId, topics);
    this.log.info({ topics }, 'consumer started');
  }

  /**
   * Leaves the group: fetching stops, the batches being handled finish, what they resolved is
   * committed (the periodic commit may not have sent it yet), then the consumer disconnects.
   */
  async stop(): Promise<void> {
    this.metrics.stopped(this.options.groupId);
    if (this.consumer) await this.commitOnLeaving(this.consumer);
    await this.consumer?.disconnect().catch((error: unknown) => this.log.warn({ err: error }, 'consumer disconnect failed'));
    await this.producer?.disconnect().catch(() => undefined);
    this.consumer = null;
    this.producer = null;
    this.log.info({ stats: this.stats }, 'consumer stopped');
  }

  private async commitOnLeaving(consumer: Consumer): Promise<void> {
    consumer.pause(this.options.topics.map((topic) => ({ topic })));
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
    const offsets = this.resolvedOffsets.toCommit();
    if (offsets.length === 0) return;
    await consumer.commitOffsets(offsets).catch((error: unknown) => this.log.warn({ err: error }, 'last offset commit failed; those events come again'));
  }

  private track(handling: Promise<void>): Promise<void> {
    this.handling.add(handling);
    return handling.finally(() => this.handling.delete(handling));
  }

  /**
   * Handles a fetched batch of one partition in order, in transactions of up to `maxBatchSize`
   * events, resolving each chunk's offsets once it is durable and heartbeating between chunks.
   * Stops early when the consumer stops or the partition was seeked (a rebalance): the rest is
   * fetched again by whoever owns the partition.
   */
  private async onBatch({ batch, resolveOffset: resolveInKafkajs, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const size = Math.max(1, this.options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE);
    const { topic, partition } = batch;
    const resolveOffset = (offset: string): void => {
      resolveInKafkajs(offset);
      this.resolvedOffsets.resolved(topic, partition, offset);
    };
    for (let from = 0; from < batch.messages.length; from += size) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(from, from + size);
      const events: DecodedMessage[] = [];
      for (const message of chunk) {
        if (this.ignores(message)) {
          this.stats.skipped += 1;
          continue;
        }
        const decoded = decodeMessage(topic, partition, message);
        // Dead-lettered messages are dropped from the stream, so sending them first keeps order.
        if (decoded.ok) events.push({ topic, partition, message, event: decoded.event });
        else await this.deadLetterUndecodable(topic, partition, message, decoded);
      }
      // Handled together with what the fetch's other partitions hand over now, or else alone.
      if (events.length === 0 || !(await this.gatherer.offer(events))) await this.handleChunk(events, resolveOffset);
      resolveOffset(chunk[chunk.length - 1]!.offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }

  /**
   * Handles one partition's chunk on its own, split into `keyConcurrency` lanes by key. Throws
   * when an event is to be redelivered; the chunk is then not resolved.
   */
  private async handleChunk(events: DecodedMessage[], resolveOffset: (offset: string) => void): Promise<void> {
    const lanes = splitByKey(events, ({ event }) => event.key, this.options.keyConcurrency ?? 1);
    if (lanes.length <= 1) {
      // Nothing here, or one lane: its offsets can be resolved event by event as it goes.
      await this.handleLane(events, resolveOffset);
      return;
    }
    // Lanes of different keys at once, each in its own transaction; the chunk counts as done
    // once every lane is. A lane that throws leaves the chunk unresolved: it comes again, and
    // what the other lanes committed is recognised by the inbox.
    const outcomes = await Promise.allSettled(lanes.map((lane) => this.handleLane(lane, () => undefined)));
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Handles the chunks several partitions handed over at once: split into `keyConcurrency`
   * lanes by key, each lane in ONE transaction. True once every lane committed; false when one
   * did not, and each partition then handles its chunk itself (what the other lanes committed
   * is recognised there by the inbox).
   */
  private async handleGathered(events: readonly DecodedMessage[]): Promise<boolean> {
    const lanes = splitByKey(events, ({ event }) => event.key, this.options.keyConcurrency ?? 1);
    const together = await Promise.all(lanes.map((lane) => this.handleTogether(lane)));
    return together.every(Boolean);
  }

  /**
   * Handles events of one lane, in order: together in one transaction when there are several,
   * else (or when that transaction failed) one by one, each resolved through `resolve` once
   * committed, so a later failure does not bring back what went before. Throws when an event is
   * to be redelivered.
   */
  private async handleLane(events: DecodedMessage[], resolve: (offset: string) => void): Promise<void> {
    if (events.length === 0) return;
    if (events.length > 1 && (await this.handleTogether(events))) return;
    for (const { topic, partition, message, event } of events) {
      await this.handleAlone(topic, partition, message, event);
      resolve(message.offset);
    }
  }

  /** Copies `message` to `<topic>.dlq` with `reason`, and counts it. */
  private async deadLetter(topic: string, partition: number, message: KafkaMessage, reason: DeadLetterReason): Promise<void> {
    await publishDeadLetter(this.producer!, topic, partition, message, reason);
    this.stats.deadLettered += 1;
    this.metrics.dlqMessages.inc({ topic: deadLetterTopic(topic), code: reason.code });
  }

  private async deadLetterUndecodable(topic: string, partition: number, message: KafkaMessage, reason: Extract<DecodeResult, { ok: false }>): Promise<void> {
    await this.deadLetter(topic, partition, message, reason);
    this.log.warn(
      { topic, partition, offset: message.offset, event_id: reason.eventId, code: reason.code, reason: reason.message },
      'message dead-lettered',
    );
  }

  /**
   * Handles `events` in ONE transaction, each with its inbox row and its own span. Returns false,
   * with nothing written, when any of them failed: the caller then handles them one by one.
   */
  private async handleTogether(events: readonly DecodedMessage[]): Promise<boolean> {
    const traced = events.map(({ topic, message, event }) => this.startSpan(topic, message, event, events.length));
    let outcomes: Outcome[];
    try {
      outcomes = await inTransaction(this.options.dataSource, (sql) => this.apply(sql, events.map((e) => e.event), traced));
    } catch (error) {
      for (const { span } of traced) {
        span.setAttribute(SpanAttributes.batchRolledBack, true);
        span.end();
      }
      const partitions = [...new Set(events.map(({ topic, partition }) => `${topic}/${partition}`))];
      this.log.warn({ err: error, partitions, events: events.length }, 'batch rolled back; handling its events one by one');
      return false;
    }
    for (const [i, outcome] of outcomes.entries()) {
      const { span } = traced[i]!;
      this.count(events[i]!.event, outcome, span);
      span.end();
    }
    return true;
  }

  /**
   * Handles one event in its own transaction. A failure is retried by redelivery, or, once the
   * message has failed `maxHandlerAttempts` times while the database answers, dead-lettered.
   */
  private async handleAlone(topic: string, partition: number, message: KafkaMessage, event: InboundEvent): Promise<void> {
    const traced = this.startSpan(topic, message, event, 1);
    const { span, parent } = traced;
    const where = `${topic}/${partition}/${message.offset}`;
    try {
      const [outcome] = await context.with(trace.setSpan(parent, span), () =>
        inTransaction(this.options.dataSource, (sql) => this.apply(sql, [event], [traced])),
      );
      this.count(event, outcome!, span);
      this.failures.delete(where);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      if (await this.isPoison(where)) {
        const reason = { code: ErrorCodes.handlerFailed, message: `handler failed ${this.failures.get(where)} times: ${(error as Error).message}` };
        await this.deadLetter(topic, partition, message, reason);
        this.failures.delete(where);
        this.log.error({ err: error, event_id: event.id, job_id: event.key, type: event.type, code: reason.code }, 'poison event dead-lettered');
        return;
      }
      this.log.error({ err: error, event_id: event.id, job_id: event.key, type: event.type }, 'event handling failed; will be redelivered');
      throw error;
    } finally {
      span.end();
    }
  }

  /** A consumer span for `event`, continuing its producer's trace. */
  private startSpan(topic: string, message: KafkaMessage, event: InboundEvent, batchSize: number): { span: Span; parent: Context } {
    const parent = contextFromTraceparent(event.traceparent);
    const span = this.tracer.startSpan(
      SpanNames.consume(topic),
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': topic,
          'messaging.kafka.message.offset': Number(message.offset),
          [SpanAttributes.eventId]: event.id,
          [SpanAttributes.eventType]: event.type,
          [SpanAttributes.jobId]: event.key,
          [SpanAttributes.batchSize]: batchSize,
        },
      },
      parent,
    );
    return { span, parent };
  }

  /**
   * A message is poison when its handler failed `maxHandlerAttempts` times while the database
   * answers: the fault is in the message, not the infrastructure. While the database is down
   * every message fails, and none of them must be dead-lettered for it.
   */
  private async isPoison(where: string): Promise<boolean> {
    const count = (this.failures.get(where) ?? 0) + 1;
    this.failures.set(where, count);
    if (this.failures.size > 10_000) this.failures.clear();
    if (count < (this.options.maxHandlerAttempts ?? 5)) return false;
    try {
      await this.options.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether `message` is of a known type this consumer has no handler for: it is skipped before
   * its value is parsed and checked, which for the notifier is most of `job.lifecycle` (every
   * step transition). A message of an unknown type is not ignored: it is dead-lettered.
   */
  private ignores(message: KafkaMessage): boolean {
    const type = headerString(message.headers, MessageHeaders.eventType);
    return type !== null && isEventType(type) && !this.options.handlers[type];
  }

  /** This consumer's handler of `event`'s type, if it has one. */
  private handlerOf(event: InboundEvent): EventHandler | undefined {
    return this.options.handlers[event.type] as EventHandler | undefined;
  }

  /**
   * Records `events` in the inbox (one statement for all that have a handler), with
   * `beforeHandling` issued behind it, and runs the handlers of those that are new, in order,
   * each in its own span's context, on the caller's transaction. An id seen twice is handled
   * once: the second is a duplicate.
   */
  private async apply(sql: Sql, events: InboundEvent[], traced: Array<{ span: Span; parent: Context }>): Promise<Outcome[]> {
    const handled = events.filter((e) => this.handlerOf(e));
    // Both issued before either is answered: Postgres runs them in this order on the connection.
    const [recorded] = await Promise.all([
      recordInInbox(sql, this.options.schema, handled),
      handled.length > 0 ? this.options.beforeHandling?.(sql, handled) : undefined,
    ]);
    const outcomes: Outcome[] = events.map((event) => {
      if (!this.handlerOf(event)) return 'skipped';
      return recorded.delete(event.id.toLowerCase()) ? 'handled' : 'duplicate';
    });
    for (const [i, event] of events.entries()) {
      if (outcomes[i] !== 'handled') continue;
      const { span, parent } = traced[i]!;
      await context.with(trace.setSpan(parent, span), () => this.handlerOf(event)!(sql, event));
    }
    return outcomes;
  }

  /** Counts an event's outcome once it is committed (or skipped, which needs no commit). */
  private count(event: InboundEvent, outcome: Outcome, span?: Span): void {
    span?.setAttribute(SpanAttributes.duplicate, outcome === 'duplicate');
    if (outcome === 'duplicate') {
      this.stats.duplicatesSuppressed += 1;
      this.log.info({ event_id: event.id, job_id: event.key, type: event.type }, 'duplicate event suppressed');
    } else if (outcome === 'skipped') {
      this.stats.skipped += 1;
    } else {
      this.stats.handled += 1;
      this.log.debug({ event_id: event.id, job_id: event.key, type: event.type }, 'event handled');
    }
  }
}
