import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DEFAULT_API_KEY_RETENTION_MS, DEFAULT_JOB_RETENTION_MS } from '@longhaul/config';
import { EventTypes, JOB_AGGREGATE, Topics, type DeliveryUpdatedV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import { createDataSource, inTransaction, type DataSource } from '@longhaul/persistence';
import { createBlobStore, StorageEnvSchema, urlSourceKey } from '@longhaul/storage';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();
const DAY_MS = 24 * 60 * 60 * 1000;
/** Past the services' default `JOB_RETENTION_MS` by a day. */
const EXPIRED_AGE_MS = DEFAULT_JOB_RETENTION_MS + DAY_MS;
/** The suite's services run a retention pass every 2 s (`SIMULATED_SERVICE_ENV`); this is several passes. */
const SEVERAL_PASSES_MS = 8_000;

let notifierDb: DataSource;

beforeAll(async () => {
  notifierDb = createDataSource({ url: env.databaseUrl, schema: 'notifier', migrations: [], applicationName: 'job-retention-int-spec', poolSize: 2 });
  await notifierDb.initialize();
});

afterAll(async () => {
  await notifierDb.destroy();
  await env.db.close();
});

/** Sends a `DeliveryUpdated` report about `jobId` as the notifier does (its outbox, relayed to `job.deliveries`); returns the event id. */
async function reportDelivery(jobId: string): Promise<{ eventId: string; deliveryId: string }> {
  const deliveryId = randomUUID();
  const at = new Date().toISOString();
  const payload: DeliveryUpdatedV1 = {
    deliveryId,
    jobId,
    channel: 'webhook',
    target: 'https://hooks.example/retention',
    endpointId: null,
    event: 'job.completed',
    messageId: `retention-${deliveryId}`,
    status: 'delivered',
    attempts: [],
    nextAttemptAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const eventId = await inTransaction(notifierDb, (sql) =>
    appendToOutbox(sql, 'notifier', { topic: Topics.jobDeliveries, type: EventTypes.DeliveryUpdatedV1, aggregateType: JOB_AGGREGATE, aggregateId: jobId, payload, traceparent: null }),
  );
  return { eventId, deliveryId };
}

/** Submits a sample job (with `headers`) and waits until it has completed; returns its id. */
async function completedJob(headers: Record<string, string> = {}): Promise<string> {
  const { status, body } = await env.api.submitJob(sampleJobRequest(), headers);
  expect(status).toBe(202);
  await env.api.waitForStatus(body.id, 'completed');
  return body.id;
}

/** The services' effect ledgers (the suite runs them with `LONGHAUL_EFFECT_LEDGER`). */
const LEDGER_SCHEMAS = ['api', 'transcoder', 'thumbnailer', 'notifier'];

/** Moves what every service recorded of `jobId` `ageMs` into the past, as if it had finished then. */
async function backdate(jobId: string, ageMs: number): Promise<void> {
  const at = `now() - $2::bigint * interval '1 millisecond'`;
  await env.db.rows(`UPDATE api.jobs SET finished_at = ${at} WHERE id = $1`, [jobId, ageMs]);
  for (const schema of ['transcoder', 'thumbnailer']) {
    await env.db.rows(`UPDATE ${schema}.work_items SET finished_at = ${at} WHERE job_id = $1`, [jobId, ageMs]);
  }
  await env.db.rows(`UPDATE notifier.received_events SET received_at = ${at} WHERE job_id = $1`, [jobId, ageMs]);
  // A ledger numbers its entries as they are applied, and its pruning reads the lowest numbers
  // first: an entry applied that long ago would be numbered below every younger one, so it is
  // renumbered below the ledger's lowest as well as backdated.
  for (const schema of LEDGER_SCHEMAS) {
    await env.db.rows(
      `UPDATE ${schema}.effect_ledger AS entry SET applied_at = ${at}, seq = moved.seq
         FROM (SELECT seq AS was, (SELECT min(seq) FROM ${schema}.effect_ledger) - row_number() OVER (ORDER BY seq) AS seq
                 FROM ${schema}.effect_ledger WHERE job_id = $1) AS moved
        WHERE entry.seq = moved.was`,
      [jobId, ageMs],
    );
  }
}

/** How many rows each table holds for `jobId`. */
async function recordsOf(jobId: string): Promise<Record<string, number>> {
  const tables = [
    'api.jobs:id',
    'api.job_steps:job_id',
    'api.step_attempts:job_id',
    'api.job_feed:job_id',
    'api.deliveries:job_id',
    'api.idempotency_keys:job_id',
    'api.dead_letters:job_id',
    'transcoder.work_items:job_id',
    'thumbnailer.work_items:job_id',
    'notifier.received_events:job_id',
    ...LEDGER_SCHEMAS.map((schema) => `${schema}.effect_ledger:job_id`),
  ];
  const counts: Record<string, number> = {};
  for (const entry of tables) {
    const [table, column] = entry.split(':') as [string, string];
    counts[table] = await env.db.count(`SELECT count(*) FROM ${table} WHERE ${column} = $1`, [jobId]);
  }
  return counts;
}

const jobExists = async (jobId: string) => (await env.db.count(`SELECT count(*) FROM api.jobs WHERE id = $1`, [jobId])) === 1;

describe('job retention (JOB_RETENTION_MS), by the running services', () => {
  it('deletes a job finished longer ago than the retention with everything every service recorded of it; keeps a recent one', async () => {
    const old = await completedJob();
    const recent = await completedJob();
    // A delivery report the api projected for the old job (no foreign key ties it to the job).
    await env.db.rows(
      `INSERT INTO api.deliveries (id, job_id, channel, target, event, message_id, status, attempts, attempt_count, created_at, updated_at)
       VALUES ($1, $2, 'webhook', 'https://hooks.example/retention', 'job.completed', $3, 'delivered', '[]', 1, now(), now())`,
      [randomUUID(), old, `retention-${old}`],
    );
    // The records whose going is asserted below exist in the first place (all but a key and a dead letter).
    const before = await recordsOf(old);
    const missing = Object.keys(before).filter((table) => before[table] === 0);
    expect(missing).toEqual(['api.idempotency_keys', 'api.dead_letters']);

    await backdate(old, EXPIRED_AGE_MS);
    // The api, both workers and the notifier each prune their own schema.
    const after = await waitFor(async () => {
      const counts = await recordsOf(old);
      return Object.values(counts).every((n) => n === 0) ? counts : null;
    }, { timeoutMs: 60_000, description: `every record of job ${old} to be pruned` });
    expect(Object.values(after).every((n) => n === 0)).toBe(true);

    expect((await env.api.getJob(old)).status).toBe(404);
    expect((await env.api.getJob(recent)).status).toBe(200);
    const kept = await recordsOf(recent);
    expect(kept['transcoder.work_items']).toBeGreaterThan(0);
    expect(LEDGER_SCHEMAS.map((schema) => kept[`${schema}.effect_ledger`])).not.toContain(0);
  });

  it('keeps a finished job while its idempotency key is live, and deletes it with the key once the key has expired', async () => {
    const key = `retention-${randomUUID()}`;
    const jobId = await completedJob({ 'idempotency-key': key });
    await backdate(jobId, EXPIRED_AGE_MS);
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_PASSES_MS));
    expect(await jobExists(jobId)).toBe(true);
    // The key still answers with the same job.
    const again = await env.api.submitJob(sampleJobRequest(), { 'idempotency-key': key });
    expect(again.body.id).toBe(jobId);

    await env.db.rows(`UPDATE api.idempotency_keys SET expires_at = now() - interval '1 second' WHERE job_id = $1`, [jobId]);
    await waitFor(async () => !(await jobExists(jobId)), { timeoutMs: 30_000, description: `job ${jobId} to be pruned once its key expired` });
    expect(await env.db.count(`SELECT count(*) FROM api.idempotency_keys WHERE job_id = $1`, [jobId])).toBe(0);
  });

  it('keeps a finished job while a dead letter of it waits to be replayed or discarded', async () => {
    const jobId = await completedJob();
    const letterId = randomUUID();
    // A dead letter as the saga writes one; the job's own outcome does not matter to the rule.
    await env.db.rows(
      `INSERT INTO api.dead_letters (id, job_id, job_type, step, lane, fingerprint, error_code, error, payload, attempts, tenant_id)
       SELECT $1, id, type, 'transcode', lane, 'retention-test', 'step_failed', '{}', '{}', '[]', tenant_id FROM api.jobs WHERE id = $2`,
      [letterId, jobId],
    );
    await backdate(jobId, EXPIRED_AGE_MS);
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_PASSES_MS));
    expect(await jobExists(jobId)).toBe(true);
    expect(await env.db.count(`SELECT count(*) FROM api.dead_letters WHERE id = $1`, [letterId])).toBe(1);

    // Once replayed, the letter no longer holds the job, and goes with it.
    await env.db.rows(`UPDATE api.dead_letters SET replayed_at = now(), replay_attempt = 1 WHERE id = $1`, [letterId]);
    await waitFor(async () => !(await jobExists(jobId)), { timeoutMs: 30_000, description: `job ${jobId} to be pruned once its dead letter was replayed` });
    expect(await env.db.count(`SELECT count(*) FROM api.dead_letters WHERE id = $1`, [letterId])).toBe(0);
  });

  it('drops a delivery report that arrives after its job was deleted, and keeps one about a job it has', async () => {
    const pruned = await completedJob();
    const kept = await completedJob();
    await backdate(pruned, EXPIRED_AGE_MS);
    await waitFor(async () => !(await jobExists(pruned)), { timeoutMs: 30_000, description: `job ${pruned} to be pruned` });

    const late = await reportDelivery(pruned);
    const control = await reportDelivery(kept);
    // The api has consumed both once their inbox rows exist (it records each in the same transaction as its effect).
    for (const { eventId } of [late, control]) {
      await waitFor(async () => (await env.db.count(`SELECT count(*) FROM api.inbox WHERE event_id = $1`, [eventId])) === 1, {
        timeoutMs: 30_000,
        description: `the api consuming report ${eventId}`,
      });
    }
    expect(await env.db.count(`SELECT count(*) FROM api.deliveries WHERE id = $1`, [control.deliveryId])).toBe(1);
    expect(await env.db.count(`SELECT count(*) FROM api.deliveries WHERE id = $1 OR job_id = $2`, [late.deliveryId, pruned])).toBe(0);
  });

  it('deletes the notifier’s finished deliveries past the retention and keeps one still retrying', async () => {
    const insert = async (status: string) => {
      const id = randomUUID();
      await env.db.rows(
        `INSERT INTO notifier.deliveries (id, event_id, job_id, job_version, channel, target, event, message_id, payload, status, created_at, updated_at)
         VALUES ($1, $1, $1, 1, 'webhook', 'https://hooks.example/retention', 'job.completed', $4, '{}', $2,
                 now() - $3::bigint * interval '1 millisecond', now() - $3::bigint * interval '1 millisecond')`,
        [id, status, EXPIRED_AGE_MS, `retention-${id}`],
      );
      return id;
    };
    const delivered = await insert('delivered');
    const failed = await insert('failed');
    const retrying = await insert('retrying');
    const has = async (id: string) => (await env.db.count(`SELECT count(*) FROM notifier.deliveries WHERE id = $1`, [id])) === 1;

    await waitFor(async () => !(await has(delivered)) && !(await has(failed)), { timeoutMs: 30_000, description: 'the finished deliveries to be pruned' });
    expect(await has(retrying)).toBe(true);
    await env.db.rows(`DELETE FROM notifier.deliveries WHERE id = $1`, [retrying]);
  });

  it('deletes the workers’ old records of cancelled jobs and webhook endpoints deleted before the retention; keeps recent ones and live endpoints', async () => {
    const ago = `now() - $2::bigint * interval '1 millisecond'`;
    const cancels: Record<string, { old: string; recent: string }> = {};
    for (const schema of ['transcoder', 'thumbnailer']) {
      cancels[schema] = { old: randomUUID(), recent: randomUUID() };
      await env.db.rows(`INSERT INTO ${schema}.cancelled_jobs (job_id, cancelled_at) VALUES ($1, ${ago})`, [cancels[schema]!.old, EXPIRED_AGE_MS]);
      await env.db.rows(`INSERT INTO ${schema}.cancelled_jobs (job_id, cancelled_at) VALUES ($1, ${ago})`, [cancels[schema]!.recent, DAY_MS]);
    }
    const [tenant] = await env.db.rows<{ id: string }>(`SELECT id FROM api.tenants WHERE name = 'longhaul-test'`);
    const endpoint = async (deletedAgoMs: number | null) => {
      const id = randomUUID();
      // Subscribed to no event, so no job of the other suites is delivered to it.
      await env.db.rows(
        `INSERT INTO api.webhook_endpoints (id, tenant_id, url, events, created_at, deleted_at)
         VALUES ($1, $3, 'https://hooks.example/retention', '{}', now() - $2::bigint * interval '1 millisecond' - interval '1 day',
                 CASE WHEN $4 THEN NULL ELSE ${ago} END)`,
        [id, deletedAgoMs ?? EXPIRED_AGE_MS, tenant!.id, deletedAgoMs === null],
      );
      return id;
    };
    const deletedLongAgo = await endpoint(EXPIRED_AGE_MS);
    const deletedRecently = await endpoint(DAY_MS);
    const live = await endpoint(null);
    const cancelled = (schema: string, jobId: string) => env.db.count(`SELECT count(*) FROM ${schema}.cancelled_jobs WHERE job_id = $1`, [jobId]);
    const endpointRow = (id: string) => env.db.count(`SELECT count(*) FROM api.webhook_endpoints WHERE id = $1`, [id]);

    await waitFor(
      async () =>
        (await cancelled('transcoder', cancels['transcoder']!.old)) + (await cancelled('thumbnailer', cancels['thumbnailer']!.old)) + (await endpointRow(deletedLongAgo)) === 0,
      { timeoutMs: 30_000, description: 'the old cancels and the endpoint deleted long ago to be pruned' },
    );
    for (const schema of ['transcoder', 'thumbnailer']) expect(await cancelled(schema, cancels[schema]!.recent)).toBe(1);
    expect(await endpointRow(deletedRecently)).toBe(1);
    expect(await endpointRow(live)).toBe(1);

    for (const schema of ['transcoder', 'thumbnailer']) await env.db.rows(`DELETE FROM ${schema}.cancelled_jobs WHERE job_id = $1`, [cancels[schema]!.recent]);
    await env.db.rows(`DELETE FROM api.webhook_endpoints WHERE id = ANY($1::uuid[])`, [[deletedRecently, live]]);
  });

  it('deletes a dead-lettered message replayed before the retention; keeps one replayed recently and one never replayed, however old', async () => {
    const topic = `retention-${randomUUID()}.dlq`;
    const record = async (offset: number, replayedAgoMs: number | null) => {
      const [row] = await env.db.rows<{ id: string }>(
        `INSERT INTO api.dlq_messages (dlq_topic, dlq_partition, dlq_offset, source_topic, headers, value, dead_lettered_at, replayed_at)
         VALUES ($1, 0, $2, 'retention', '{}', convert_to('{}', 'UTF8'), now() - $3::bigint * interval '1 millisecond',
                 CASE WHEN $4::bigint IS NULL THEN NULL ELSE now() - $4::bigint * interval '1 millisecond' END)
         RETURNING id`,
        [topic, offset, EXPIRED_AGE_MS + DAY_MS, replayedAgoMs],
      );
      return String(row!.id);
    };
    const replayedLongAgo = await record(0, EXPIRED_AGE_MS);
    const replayedRecently = await record(1, DAY_MS);
    const neverReplayed = await record(2, null);
    const has = async (id: string) => (await env.db.count(`SELECT count(*) FROM api.dlq_messages WHERE id = $1`, [id])) === 1;

    await waitFor(async () => !(await has(replayedLongAgo)), { timeoutMs: 30_000, description: 'the message replayed long ago to be pruned' });
    expect(await has(replayedRecently)).toBe(true);
    expect(await has(neverReplayed)).toBe(true);
    await env.db.rows(`DELETE FROM api.dlq_messages WHERE dlq_topic = $1`, [topic]);
  });

  it('deletes an API key revoked or expired before the key retention; keeps one stopped recently and one that works', async () => {
    const [tenant] = await env.db.rows<{ id: string }>(`SELECT id FROM api.tenants WHERE name = 'longhaul-test'`);
    const past = DEFAULT_API_KEY_RETENTION_MS + DAY_MS;
    const key = async (revokedAgoMs: number | null, expiresInMs: number | null) => {
      const [row] = await env.db.rows<{ id: string }>(
        `INSERT INTO api.api_keys (id, tenant_id, prefix, secret_hash, scopes, created_at, revoked_at, expires_at)
         VALUES (gen_random_uuid(), $1, $2, sha256('x'), ARRAY['read'], now() - $5::bigint * interval '1 millisecond',
                 now() - $3::bigint * interval '1 millisecond', now() + $4::bigint * interval '1 millisecond')
         RETURNING id`,
        [tenant!.id, `ret${randomUUID().replace(/-/g, '').slice(0, 9)}`, revokedAgoMs, expiresInMs, past + DAY_MS],
      );
      return String(row!.id);
    };
    const revokedLongAgo = await key(past, null);
    const expiredLongAgo = await key(null, -past);
    // Expired long ago, but revoked later, within the retention: it stopped working long ago.
    const expiredThenRevoked = await key(DAY_MS, -past);
    const revokedRecently = await key(DAY_MS, null);
    const expiredRecently = await key(null, -DAY_MS);
    const working = await key(null, null);
    const has = async (id: string) => (await env.db.count(`SELECT count(*) FROM api.api_keys WHERE id = $1`, [id])) === 1;

    await waitFor(async () => !(await has(revokedLongAgo)) && !(await has(expiredLongAgo)) && !(await has(expiredThenRevoked)), {
      timeoutMs: 30_000,
      description: 'the keys that stopped working long ago to be pruned',
    });
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_PASSES_MS));
    for (const id of [revokedRecently, expiredRecently, working]) expect([id, await has(id)]).toEqual([id, true]);
    await env.db.rows(`DELETE FROM api.api_keys WHERE id = ANY($1::uuid[])`, [[revokedRecently, expiredRecently, working]]);
  });

  it('deletes an upload no job has named for longer than the retention, and queues its blob; keeps a recent one and one a job still names', async () => {
    const [tenant] = await env.db.rows<{ id: string }>(`SELECT id FROM api.tenants WHERE name = 'longhaul-test'`);
    const upload = async (usedAgoMs: number) => {
      const id = randomUUID();
      await env.db.rows(
        `INSERT INTO api.uploads (id, tenant_id, blob_key, size_bytes, probe, created_at, used_at)
         VALUES ($1, $2, $3, 1, '{}', now() - $4::bigint * interval '1 millisecond', now() - $4::bigint * interval '1 millisecond')`,
        [id, tenant!.id, `uploads/${id}/source`, usedAgoMs],
      );
      return id;
    };
    const usedAt = async (id: string) => (await env.db.rows<{ used_at: Date }>(`SELECT used_at FROM api.uploads WHERE id = $1`, [id]))[0]?.used_at;
    const unused = await upload(EXPIRED_AGE_MS);
    const recent = await upload(DAY_MS);
    const named = await upload(EXPIRED_AGE_MS);
    // A submit naming an old upload stamps it as used now …
    const { status } = await env.api.submitJob(sampleJobRequest({ source: { uploadId: named } }));
    expect(status).toBe(202);
    expect(Date.now() - (await usedAt(named))!.getTime()).toBeLessThan(DAY_MS);
    // … and while a job names it, it stays even once that stamp is old.
    await env.db.rows(`UPDATE api.uploads SET used_at = now() - $2::bigint * interval '1 millisecond' WHERE id = $1`, [named, EXPIRED_AGE_MS]);

    await waitFor(async () => (await usedAt(unused)) === undefined, { timeoutMs: 30_000, description: `upload ${unused} to be pruned` });
    // Its blob folder was queued and then purged (the store has no such folder: deleting it is no error).
    await waitFor(async () => (await env.db.count(`SELECT count(*) FROM api.blob_purges WHERE job_id = $1`, [unused])) === 0, {
      timeoutMs: 30_000,
      description: `the purge of upload ${unused}'s blobs`,
    });
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_PASSES_MS));
    expect(await usedAt(recent)).toBeDefined();
    expect(await usedAt(named)).toBeDefined();
    // A job naming a deleted upload is refused as naming an unknown one.
    const refused = await env.api.submitJob(sampleJobRequest({ source: { uploadId: unused } }));
    expect(refused.status).toBe(422);

    await env.db.rows(`DELETE FROM api.uploads WHERE id = ANY($1::uuid[])`, [[recent, named]]);
  });
  it('deletes the stored source of a job that never committed once its staging is past the grace; keeps a committed job’s and a recent one', async () => {
    // The api's own store: the suite's services run the fs driver with the stack's default root.
    const store = await createBlobStore(StorageEnvSchema.parse(process.env));
    const stage = async (jobId: string, agoMs: number) => {
      await store.put(urlSourceKey(jobId), Readable.from([Buffer.from('fetched source')]));
      await env.db.rows(`INSERT INTO api.blob_purges (job_id, kind, created_at) VALUES ($1, 'source', now() - $2::bigint * interval '1 millisecond')`, [jobId, agoMs]);
    };
    const staged = async (jobId: string) => env.db.count(`SELECT count(*) FROM api.blob_purges WHERE job_id = $1`, [jobId]);
    // As an api that died between storing a fetched source and committing its job leaves it, a
    // day ago: past the api's grace for a submit still on its way (`STAGED_SOURCE_GRACE_MS`, an hour).
    const abandoned = randomUUID();
    await stage(abandoned, DAY_MS);
    // A job that did commit: only its staging row goes.
    const committed = await completedJob();
    await stage(committed, DAY_MS);
    // A submit that may still be on its way to commit.
    const recent = randomUUID();
    await stage(recent, 0);

    await waitFor(async () => ((await staged(abandoned)) + (await staged(committed)) === 0 ? true : null), {
      timeoutMs: 30_000,
      description: 'the staged sources past the grace to be purged',
    });
    expect(await store.stat(urlSourceKey(abandoned))).toBeNull();
    expect(await store.stat(urlSourceKey(committed))).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, SEVERAL_PASSES_MS));
    expect(await staged(recent)).toBe(1);
    expect(await store.stat(urlSourceKey(recent))).not.toBeNull();

    await env.db.rows(`DELETE FROM api.blob_purges WHERE job_id = $1`, [recent]);
    for (const id of [committed, recent]) await store.deleteFolder(`sources/${id}/`);
  });
});
