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
