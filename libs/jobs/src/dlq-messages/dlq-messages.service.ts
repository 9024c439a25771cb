import { MessageHeaders } from '@longhaul/contracts';
import { OUTBOX_COLUMNS } from '@longhaul/outbox';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import type { DlqMessageView } from '@longhaul/contracts';
import { DlqMessageRepository, type DlqMessageFilter } from './dlq-message.repository';

/** The outcome of a replay of one recorded message. */
export type DlqReplayResult =
  | { outcome: 'replayed'; message: DlqMessageView }
  /** Replayed before (`replayedAt`): nothing was sent again. */
  | { outcome: 'already-replayed'; message: DlqMessageView }
  /** It cannot be replayed: `notReplayable` says why. Nothing was sent. */
  | { outcome: 'not-replayable'; message: DlqMessageView }
  | { outcome: 'not-found'; id: string };

/**
 * The messages consumers dead-lettered, as the api recorded them: listed, shown, replayed to the
 * topic they came from, deleted. A replay is the outbox's usual path: in ONE transaction the
 * message is written to the api's outbox under its own event id, key, type, payload and trace
 * context, and marked replayed, so it is sent at most once however often it is asked for, and
 * only if that transaction commits. Debezium relays it to its topic; the consumers that had
 * handled it before (other groups of the topic) find its id in their inbox and skip it, and the
 * one that dead-lettered it, which recorded nothing, handles it now.
 */
export class DlqMessagesService {
  private readonly messages = new DlqMessageRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  list(filter: DlqMessageFilter): Promise<DlqMessageView[]> {
    return withConnection(this.dataSource, (sql) => this.messages.list(sql, filter));
  }

  /** One message; with `tenantId`, only one of that tenant's jobs. */
  get(id: string, tenantId?: string): Promise<DlqMessageView | null> {
    return withConnection(this.dataSource, (sql) => this.messages.find(sql, id, { tenantId }));
  }

  /** Replays one message; with `tenantId`, only one of that tenant's jobs (another is `not-found`). */
  async replay(id: string, tenantId?: string): Promise<DlqReplayResult> {
    const result = await inTransaction<DlqReplayResult>(this.dataSource, async (sql) => {
      const message = await this.messages.find(sql, id, { lock: true, tenantId });
      if (!message) return { outcome: 'not-found', id };
      if (message.replayedAt) return { outcome: 'already-replayed', message };
      if (message.notReplayable) return { outcome: 'not-replayable', message };
      // A copy of the event may still be in the api's outbox (its own event, dead-lettered by a
      // worker or the notifier, not yet pruned): it was relayed long ago, and the relay's
      // publication streams inserts only, so deleting it sends nothing and frees its id.
      await sql.execute(`DELETE FROM ${API_SCHEMA}.outbox WHERE id = $1::uuid`, [message.eventId]);
      await sql.execute(
        `INSERT INTO ${API_SCHEMA}.outbox (${OUTBOX_COLUMNS}) VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6, $7)`,
        [
          message.eventId,
          message.headers[MessageHeaders.aggregateType] ?? 'job',
          message.key,
          message.eventType,
          message.value,
          message.sourceTopic,
          message.headers[MessageHeaders.traceparent] ?? null,
        ],
      );
      const replayedAt = await this.messages.markReplayed(sql, id);
      return { outcome: 'replayed', message: { ...message, replayedAt } };
    });
    if (result.outcome === 'replayed') {
      const { message } = result;
      this.logger.info(
        { dlqMessageId: id, job_id: message.key, eventId: message.eventId, eventType: message.eventType, topic: message.sourceTopic, trace_id: message.traceId },
        'dead-lettered message replayed to its topic',
      );
    }
    return result;
  }

  /**
   * Deletes the records (not the messages in Kafka); with `tenantId`, only those of that tenant's
   * jobs. Returns the ids that existed.
   */
  delete(ids: readonly string[], tenantId?: string): Promise<string[]> {
    return inTransaction(this.dataSource, (sql) => this.messages.delete(sql, ids, tenantId));
  }
}
