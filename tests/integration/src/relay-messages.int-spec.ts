import { OutboxRelay } from '@longhaul/outbox';
import { sampleJobRequest, startComponent, stopComponent, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(async () => {
  // Leave the stack whole for the next test file even if this one failed midway.
  if (env.stackMode === 'native') startComponent('connect');
  await env.db.close();
});

const nativeOnly = env.stackMode === 'native' ? it : it.skip;

/** Where Debezium relays a logical decoding message: `<topic.prefix>.message`. */
const MESSAGE_TOPIC = 'longhaul.message';

/**
 * Outbox rows written at or after `lsn`, over every table of the relay's publication: a relayed
 * row moves the slot too, so a window that had one proves nothing about the heartbeat.
 */
async function outboxRowsSince(lsn: string): Promise<number> {
  const tables = await env.db.rows<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_publication_tables WHERE pubname = 'longhaul_outbox'`,
  );
  let rows = 0;
  for (const { name } of tables) {
    rows += await env.db.count(`SELECT count(*) FROM ${name} WHERE wal_lsn >= ($1::pg_lsn - '0/0'::pg_lsn)::bigint`, [lsn]);
  }
  return rows;
}

/** Whether the relay's slot has confirmed WAL position `lsn` (a `pg_lsn` text). */
async function slotConfirmed(lsn: string): Promise<boolean> {
  const [row] = await env.db.rows<{ confirmed: boolean }>(
    `SELECT confirmed_flush_lsn >= $2::pg_lsn AS confirmed FROM pg_replication_slots WHERE slot_name = $1`,
    [OutboxRelay.slot, lsn],
  );
  return row?.confirmed === true;
}

describe('the outbox relay', () => {
  it('relays no logical decoding message: a message another tool writes to the WAL makes no topic and no record', async () => {
    const since = Date.now() - 1_000;
    // Transactional, as an extension or a replication tool would write it.
    await env.db.rows(`SELECT pg_logical_emit_message(true, 'longhaul-test', 'not an outbox row')`);
    // The connector reads the WAL in order: once a job accepted after the message has been
    // relayed to its worker, the connector has read the message too.
    const { status, body: job } = await env.api.submitJob(sampleJobRequest());
    expect(status).toBe(202);
    const done = await env.api.waitForStatus(job.id, 'completed', 120_000);
    expect(done.steps[0]!.relayedAt).not.toBeNull();

    expect(await env.kafka.countSince(MESSAGE_TOPIC, since)).toBe(0);
  });

  nativeOnly('moves its replication slot while no outbox row is written, from the moment Connect is back', async () => {
    // The connector's heartbeat (every 10 s) commits a logical decoding message of its own, so
    // the slot's confirmed position follows the WAL even while the outbox is quiet, also right
    // after a restart, when the connector confirms nothing before it has resumed at a transaction
    // boundary. A slot that stands still keeps every segment of WAL written meanwhile (another
    // database on the server, a bulk delete) on disk.
    stopComponent('connect');
    startComponent('connect');
    let attempts = 0;
    let confirmedWithoutRows = false;
    while (!confirmedWithoutRows && attempts < 3) {
      attempts++;
      // WAL that no outbox row accounts for: a message the connector drops, not in a transaction.
      await env.db.rows(`SELECT pg_logical_emit_message(false, 'longhaul-test', repeat('x', 1000))`);
      const [{ lsn }] = await env.db.rows<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`);
      await waitFor(() => slotConfirmed(lsn), { timeoutMs: 45_000, intervalMs: 500, description: `the slot to confirm ${lsn}` });
      // A row some service wrote in the window would have moved the slot by itself: try again.
      confirmedWithoutRows = (await outboxRowsSince(lsn)) === 0;
    }
    expect(confirmedWithoutRows).toBe(true);
  }, 240_000);
});
