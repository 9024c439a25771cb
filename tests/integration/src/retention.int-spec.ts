import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { InboxPruner, KafkaAdminSession } from '@longhaul/messaging';
import { OutboxPruner, OutboxRelay, readRelayLag } from '@longhaul/outbox';
import { createDataSource, createEffectLedgerTableSql, effectLedgerHistory, withConnection, type DataSource } from '@longhaul/persistence';
import { startComponent, stopComponent, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();
const HOUR_MS = 3_600_000;
/** The notifier's schema: its outbox is the quietest of the four, so a test's rows stand out. */
const SCHEMA = 'notifier';
/** Rows this file writes are routed here by the relay, away from every topic a service reads. */
const TEST_TOPIC = `retention.test.${randomUUID().slice(0, 8)}`;

let dataSource: DataSource;
const brokers = (process.env['LONGHAUL_TEST_KAFKA_BROKERS'] ?? '').split(',');
const kafka = new Kafka({ clientId: 'retention-int-spec', brokers, logLevel: logLevel.NOTHING });
const admin = new KafkaAdminSession(kafka, 10_000);
const topicsMade: string[] = [];

beforeAll(async () => {
  dataSource = createDataSource({ url: env.databaseUrl, schema: SCHEMA, migrations: [], applicationName: 'retention-int-spec', poolSize: 4 });
  await dataSource.initialize();
});

afterAll(async () => {
  // Leave the stack whole for the next test file even if this one failed midway.
  if (env.stackMode === 'native') startComponent('connect');
  await env.db.rows(`DELETE FROM ${SCHEMA}.outbox WHERE topic = $1`, [TEST_TOPIC]);
  await env.db.rows(`DELETE FROM ${SCHEMA}.inbox WHERE topic LIKE 'retention.test.%'`);
  await admin.run((a) => a.deleteTopics({ topics: [TEST_TOPIC, ...topicsMade] })).catch(() => undefined);
  await admin.close();
  await dataSource.destroy();
  await env.db.close();
});

/** Inserts an outbox row for the test topic, `ageMs` old; returns its id. */
async function insertOutboxRow(ageMs: number, sql: (text: string, params: unknown[]) => Promise<unknown> = (t, p) => env.db.rows(t, p)): Promise<string> {
  const id = randomUUID();
  await sql(
    `INSERT INTO ${SCHEMA}.outbox (id, aggregatetype, aggregateid, type, payload, topic, created_at)
     VALUES ($1::uuid, 'retention-test', $1::text, 'RetentionTest.v1', '{}', $2, now() - $3::bigint * interval '1 millisecond')`,
    [id, TEST_TOPIC, ageMs],
  );
  return id;
}

const outboxHas = async (id: string) => (await env.db.count(`SELECT count(*) FROM ${SCHEMA}.outbox WHERE id = $1`, [id])) === 1;

/** The slot's state and whether it has confirmed WAL position `lsn` (a `pg_lsn` text). */
async function slotState(lsn = '0/0'): Promise<{ active: boolean; confirmed: boolean } | undefined> {
  const [row] = await env.db.rows<{ active: boolean; confirmed: boolean }>(
    `SELECT active, confirmed_flush_lsn >= $2::pg_lsn AS confirmed FROM pg_replication_slots WHERE slot_name = $1`,
    [OutboxRelay.slot, lsn],
  );
  return row ? { active: row.active, confirmed: row.confirmed } : undefined;
}

/** Writes a row, so the relay has something to confirm, and waits until it has confirmed everything before it. */
async function relayPastNow(): Promise<void> {
  const [{ lsn }] = (await env.db.rows<{ lsn: string }>(`SELECT pg_current_wal_insert_lsn()::text AS lsn`)) as [{ lsn: string }];
  await insertOutboxRow(0);
  await waitFor(async () => (await slotState(lsn))?.confirmed, { timeoutMs: 60_000, description: `the relay confirming ${lsn}` });
}

/**
 * Runs passes until `done` holds. After each pass the relay is made to confirm a position past
 * that pass's observation, so the next pass can use it.
 */
async function pruneUntil(pruner: OutboxPruner, done: () => Promise<boolean>): Promise<void> {
  for (let pass = 0; pass < 6; pass += 1) {
    await pruner.prune();
    if (await done()) return;
    await relayPastNow();
  }
  throw new Error('the pruner never got there');
}

const nativeOnly = env.stackMode === 'native' ? describe : describe.skip;

nativeOnly('outbox retention against the real replication slot', () => {
  const options = { schema: SCHEMA, slot: OutboxRelay.slot, retentionMs: HOUR_MS, batchSize: 2 };

  it('keeps an old row while the relay is down, deletes it once relayed, and keeps young rows', async () => {
    stopComponent('connect');
    await waitFor(async () => (await slotState())?.active === false, { timeoutMs: 30_000, description: 'the slot going inactive' });
    const old = await insertOutboxRow(2 * HOUR_MS);
    const young = await insertOutboxRow(0);
    const pruner = new OutboxPruner(dataSource, options);

    expect(await pruner.prune()).toEqual({ deleted: 0, held: 'slot_inactive' });
    expect(await outboxHas(old)).toBe(true);

    startComponent('connect');
    await waitFor(async () => (await slotState())?.active, { timeoutMs: 120_000, description: 'the relay reading the slot again' });
    await pruneUntil(pruner, async () => !(await outboxHas(old)));

    expect(await outboxHas(young)).toBe(true);
    // The relay-lag figure still reads the remaining rows: everything left is relayed.
    const lag = await withConnection(dataSource, (sql) => readRelayLag(sql, SCHEMA, OutboxRelay.slot));
    expect(lag).not.toBeNull();
    expect(lag!.oldestUnrelayedSeconds).toBeLessThan(60);
  });

  it('keeps an old row whose transaction committed after the relay’s confirmed observation', async () => {
    const pruner = new OutboxPruner(dataSource, options);
    // The row is inserted (backdated) in a transaction that stays open while passes observe the
    // slot and the relay confirms other writes: its insert lies behind the confirmed position,
    // its commit does not.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    let late: string;
    try {
      await runner.startTransaction();
      late = await insertOutboxRow(2 * HOUR_MS, (text, params) => runner.query(text, params));
      for (let pass = 0; pass < 3; pass += 1) {
        await pruner.prune();
        await relayPastNow();
      }
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    // Counted as relayed by its insert position, yet its commit is newer than what was confirmed.
    const [row] = await env.db.rows<{ insert_confirmed: boolean }>(
      `SELECT o.wal_lsn < (s.confirmed_flush_lsn - '0/0'::pg_lsn) AS insert_confirmed
         FROM ${SCHEMA}.outbox o, pg_replication_slots s WHERE o.id = $1 AND s.slot_name = $2`,
      [late, OutboxRelay.slot],
    );
    expect(row?.insert_confirmed).toBe(true);
    await pruner.prune();
    expect(await outboxHas(late)).toBe(true);

    await pruneUntil(pruner, async () => !(await outboxHas(late)));
  });

  it('streams the inserts of the outbox to the relay, not the deletes of relayed rows', async () => {
    // A temporary logical slot of its own on the relay's publication, read with the relay's
    // plugin: what it decodes between the insert and the delete is what the relay is sent.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    const slot = `retention_probe_${randomUUID().slice(0, 8)}`;
    try {
      await runner.query(`SELECT pg_create_logical_replication_slot($1, 'pgoutput', true)`, [slot]);
      const old = await insertOutboxRow(2 * HOUR_MS);
      await pruneUntil(new OutboxPruner(dataSource, options), async () => !(await outboxHas(old)));
      // pgoutput's first byte names the message: I insert, D delete, U update, T truncate.
      const [kinds] = (await runner.query(
        `SELECT count(*) FILTER (WHERE get_byte(data, 0) = ascii('I'))::int AS inserts,
                count(*) FILTER (WHERE get_byte(data, 0) = ascii('D'))::int AS deletes
           FROM pg_logical_slot_peek_binary_changes($1, NULL, NULL, 'proto_version', '1', 'publication_names', 'longhaul_outbox')`,
        [slot],
      )) as [{ inserts: number; deletes: number }];
      expect(kinds.inserts).toBeGreaterThanOrEqual(1);
      expect(kinds.deletes).toBe(0);
    } finally {
      await runner.query(`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1`, [slot]).catch(() => undefined);
      await runner.release();
    }
  });
});

describe('inbox retention', () => {
  const retentionMs = 48 * HOUR_MS;

  /** Inserts an inbox row of `topic` received `ageMs` ago; returns its event id. */
  async function insertInboxRow(topic: string, ageMs: number): Promise<string> {
    const id = randomUUID();
    await env.db.rows(
      `INSERT INTO ${SCHEMA}.inbox (event_id, event_type, aggregate_id, topic, kafka_partition, kafka_offset, received_at)
       VALUES ($1::uuid, 'RetentionTest.v1', $1::text, $2, 0, 0, now() - $3::bigint * interval '1 millisecond')`,
      [id, topic, ageMs],
    );
    return id;
  }
  const inboxHas = async (id: string) => (await env.db.count(`SELECT count(*) FROM ${SCHEMA}.inbox WHERE event_id = $1`, [id])) === 1;

  it('deletes rows past the retention and keeps those within it', async () => {
    const topic = `retention.test.${randomUUID().slice(0, 8)}`;
    const expired = await insertInboxRow(topic, retentionMs + HOUR_MS);
    const nearlyExpired = await insertInboxRow(topic, retentionMs - HOUR_MS);
    const fresh = await insertInboxRow(topic, 0);
    const pruner = new InboxPruner(dataSource, admin, { schema: SCHEMA, topics: [topic], retentionMs, batchSize: 1 });

    expect(await pruner.prune()).toEqual({ deleted: 1, keptForTopics: [] });
    expect(await inboxHas(expired)).toBe(false);
    expect(await inboxHas(nearlyExpired)).toBe(true);
    expect(await inboxHas(fresh)).toBe(true);
  });

  it('keeps rows past the retention while their topic still holds a message older than the cutoff', async () => {
    const topic = `retention.test.${randomUUID().slice(0, 8)}`;
    topicsMade.push(topic);
    // A topic that keeps messages for ever, holding one written three days ago.
    await admin.run((a) =>
      a.createTopics({ topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'retention.ms', value: '-1' }] }], waitForLeaders: true }),
    );
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    await producer.send({ topic, messages: [{ value: '{}', timestamp: String(Date.now() - 72 * HOUR_MS) }] });
    await producer.disconnect();
    const expired = await insertInboxRow(topic, retentionMs + HOUR_MS);
    const pruner = new InboxPruner(dataSource, admin, { schema: SCHEMA, topics: [topic], retentionMs, batchSize: 10 });

    expect(await pruner.prune()).toEqual({ deleted: 0, keptForTopics: [topic] });
    expect(await inboxHas(expired)).toBe(true);
  });
});

describe('effect ledger retention', () => {
  /** A ledger of this test's own, in a schema no service uses. */
  const schema = `retention_ledger_${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    await env.db.rows(`CREATE SCHEMA "${schema}"`);
    for (const statement of createEffectLedgerTableSql(schema)) await env.db.rows(statement);
  });

  afterAll(async () => {
    await env.db.rows(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  it('deletes the oldest entries past the retention and leaves the young ones of the batch unlocked', async () => {
    // Numbered as applied: three old entries first, then five young ones.
    await env.db.rows(
      `INSERT INTO "${schema}".effect_ledger (effect, job_id, applied_at)
       SELECT 'retention-test', gen_random_uuid(), now() - CASE WHEN n <= 3 THEN 48 ELSE 0 END * interval '1 hour'
         FROM generate_series(1, 8) AS n ORDER BY n`,
    );
    const ledger = effectLedgerHistory(schema);

    // A batch of 6 looks at the three old entries and three young ones.
    expect(await withConnection(dataSource, (sql) => ledger.deleteExpired(sql, 24 * HOUR_MS, 6))).toBe(3);
    expect(await env.db.count(`SELECT count(*) FROM "${schema}".effect_ledger`)).toBe(5);
    // A row lock sets the row's xmax (and writes WAL): the young entries it looked at and kept must carry none.
    expect(await env.db.count(`SELECT count(*) FROM "${schema}".effect_ledger WHERE xmax <> 0`)).toBe(0);
  });
});
