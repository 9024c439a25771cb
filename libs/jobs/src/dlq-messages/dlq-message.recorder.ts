import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { DEAD_LETTER_TOPICS, MessageHeaders } from '@longhaul/contracts';
import { ensureTopics } from '@longhaul/messaging';
import { inTransaction, type DataSource } from '@longhaul/persistence';
import { traceIdOf, type Logger } from '@longhaul/telemetry';
import { dlqRecordOf } from './dlq-message';
import { DlqMessageRepository } from './dlq-message.repository';

/** Consumer group of the recorder. */
export const DLQ_RECORDER_GROUP_ID = 'longhaul.api.dlq-messages';

/**
 * Copies every message of the dead-letter topics into `api.dlq_messages`, where the `dlq`
 * command lists and replays them: Kafka would drop them after the topics' retention. Each fetched
 * batch is ONE statement in ONE transaction, and its offsets are resolved only after it commits;
 * a batch read again (a crash before the offsets were committed) finds its rows by their place in
 * the topic and adds nothing. The messages are not decoded: whatever a consumer could not handle
 * is kept byte for byte. A new group starts at the topics' beginning, so what they still hold
 * when the api first runs is recorded too.
 */
export class DlqMessageRecorder {
  private consumer: Consumer | null = null;
  private readonly messages = new DlqMessageRepository();
  private readonly log: Logger;

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'dlq-recorder', group: DLQ_RECORDER_GROUP_ID });
  }

  async start(): Promise<void> {
    await ensureTopics(this.kafka, [...DEAD_LETTER_TOPICS]);
    const consumer = this.kafka.consumer({
      groupId: DLQ_RECORDER_GROUP_ID,
      sessionTimeout: 10_000,
      rebalanceTimeout: 20_000,
      heartbeatInterval: 1_000,
      // A failed transaction (database away) is retried, then the consumer restarts from its
      // last committed offsets: nothing is skipped.
      retry: { retries: 10, initialRetryTime: 300, maxRetryTime: 10_000, restartOnFailure: async () => true },
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [...DEAD_LETTER_TOPICS], fromBeginning: true });
    await consumer.run({ eachBatchAutoResolve: false, eachBatch: (payload) => this.record(payload) });
    this.log.info({ topics: DEAD_LETTER_TOPICS }, 'dead-letter recorder started');
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect().catch((error: unknown) => this.log.warn({ err: error }, 'dead-letter recorder disconnect failed'));
    this.consumer = null;
  }

  private async record({ batch, resolveOffset, heartbeat }: EachBatchPayload): Promise<void> {
    if (batch.messages.length === 0) return;
    const records = batch.messages.map((message) => dlqRecordOf(batch.topic, batch.partition, message));
    const added = await inTransaction(this.dataSource, (sql) => this.messages.record(sql, records));
    for (const message of batch.messages) resolveOffset(message.offset);
    await heartbeat();
    if (added === 0) return;
    // Logged at warn: a dead-lettered message is work that did not happen until someone acts.
    for (const record of records) {
      this.log.warn(
        { topic: record.sourceTopic, jobId: record.key, eventId: record.eventId, eventType: record.eventType, code: record.errorCode, trace_id: traceIdOf(record.headers[MessageHeaders.traceparent]) },
        'dead-lettered message recorded',
      );
    }
  }
}
