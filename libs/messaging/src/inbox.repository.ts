import type { Sql } from '@longhaul/persistence';
import type { InboundEvent } from './inbound-event';

/**
 * Records that `event` is being handled. Returns false when it was handled before (the row
 * exists), in which case the caller skips the effect. Must share the effect's transaction.
 */
export async function recordInInbox(sql: Sql, schema: string, event: InboundEvent): Promise<boolean> {
  const inserted = await sql.execute(
    `INSERT INTO "${schema}".inbox (event_id, event_type, aggregate_id, topic, kafka_partition, kafka_offset)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.type, event.key, event.topic, event.partition, event.offset],
  );
  return inserted === 1;
}

/**
 * Deletes up to `limit` inbox rows of `topic` received before `before`, oldest first, and returns
 * how many it deleted. Rows another pruner of the same schema is deleting are skipped, not waited
 * for; the `(topic, received_at)` index finds the candidates.
 */
export async function deleteExpiredInboxRows(sql: Sql, schema: string, topic: string, before: Date, limit: number): Promise<number> {
  return sql.execute(
    `DELETE FROM "${schema}".inbox
      WHERE event_id IN (SELECT event_id
                           FROM "${schema}".inbox
                          WHERE topic = $1 AND received_at < $2
                          ORDER BY received_at
                          LIMIT $3
                          FOR UPDATE SKIP LOCKED)`,
    [topic, before, limit],
  );
}
