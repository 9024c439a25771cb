import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * `api.dlq_messages`: every message a consumer copied to a `<topic>.dlq`, as the api's recorder
 * read it there (`DlqMessageRecorder`). Kafka drops a topic's messages after its retention; this
 * keeps them until an operator deletes them, with whether and when each was replayed. A message
 * is identified by where it sits in its dead-letter topic, so a record read again after a
 * restart is the same row.
 */
export class DlqMessages1766100000001 implements MigrationInterface {
  name = 'DlqMessages1766100000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api.dlq_messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        dlq_topic text NOT NULL,
        dlq_partition integer NOT NULL,
        dlq_offset bigint NOT NULL,
        source_topic text NOT NULL,
        source text,
        error_code text,
        error_message text,
        event_id text,
        event_type text,
        message_key text,
        headers jsonb NOT NULL,
        value bytea,
        dead_lettered_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        replayed_at timestamptz,
        UNIQUE (dlq_topic, dlq_partition, dlq_offset)
      )`);
    // The messages of one event, across its replays.
    await runner.query(`CREATE INDEX dlq_messages_event_idx ON api.dlq_messages (event_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS api.dlq_messages`);
  }
}
