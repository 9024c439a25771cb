import type { Sql } from '@longhaul/persistence';
import type { InboundEvent } from './inbound-event';

/** What the inbox keeps of an event: an {@link InboundEvent} without its payload and trace. */
export type InboxEntry = Pick<InboundEvent, 'id' | 'key' | 'topic' | 'partition' | 'offset'> & { type: string };

/**
 * Records that `events` are being handled, in ONE statement, and returns the ids it recorded now:
 * an event whose id is missing from the answer was handled before (or appears earlier in
 * `events`), and its effect is skipped. Must share the effects' transaction. Rows are inserted
 * in the order given, so `seq` keeps the handling order. Ids come back in Postgres' canonical
 * (lower-case) form.
 */
export async function recordInInbox(sql: Sql, schema: string, events: readonly InboxEntry[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await sql.rows<{ event_id: string }>(
    `INSERT INTO "${schema}".inbox (event_id, event_type, aggregate_id, topic, kafka_partition, kafka_offset)
     SELECT e.id, e.type, e.key, e.topic, e.part, e.off
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::bigint[])
            WITH ORDINALITY AS e(id, type, key, topic, part, off, n)
      ORDER BY e.n
     ON CONFLICT (event_id) DO NOTHING
     RETURNING event_id`,
    [
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.key),
      events.map((e) => e.topic),
      events.map((e) => e.partition),
      events.map((e) => e.offset),
    ],
  );
  return new Set(rows.map((r) => r.event_id));
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
