/**
 * `check`: proves the outbox relay end to end on the running stack.
 *
 * In:  postgres, kafka, connect and the RUNNING `longhaul-outbox` connector.
 * Out: exit 0 when both rows below come out of Kafka exactly as services expect
 *      them, otherwise an error listing every difference. Leaves nothing behind.
 *
 * It creates schema `infra_smoke` with an outbox table of the shape every
 * service uses, adds it to the publication, inserts one row with a traceparent
 * and one without, reads topic `infra.smoke` with Kafka's console consumer
 * (group `longhaul-infra-check`, so each run starts after the previous one),
 * then removes the table from the publication and drops the schema. The topic
 * stays: deleting it is futile while Connect's producer still knows it, as its
 * next metadata refresh auto-creates it again.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

import pg from 'pg';

import { InfraError } from './infra.errors.mts';
import { javaArgs, kafkaJars } from './java.launch.mts';
import { elapsed, say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';
import { requireJava } from './toolchain.check.mts';

const SCHEMA = 'infra_smoke';
const TOPIC = 'infra.smoke';
const GROUP = 'longhaul-infra-check';
const NULL_LITERAL = '<NULL>';
const CONSUME_TIMEOUT_MS = 45_000;

interface OutboxRow {
  id: string;
  aggregatetype: string;
  aggregateid: string;
  type: string;
  payload: Record<string, unknown>;
  topic: string;
  traceparent: string | null;
}

export async function runSmokeCheck(config: StackConfig): Promise<void> {
  const topic = TOPIC;
  const rows: OutboxRow[] = [
    row(topic, `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`),
    row(topic, null),
  ];
  const db = new pg.Client({ connectionString: config.postgres.url });
  await db.connect();
  try {
    await createOutbox(db, config);
    const insertedAt = Date.now();
    for (const r of rows) {
      await db.query(
        `INSERT INTO ${SCHEMA}.outbox (id, aggregatetype, aggregateid, type, payload, topic, traceparent)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.id, r.aggregatetype, r.aggregateid, r.type, JSON.stringify(r.payload), r.topic, r.traceparent],
      );
    }
    say('check', `inserted ${rows.length} outbox rows for topic ${topic}; reading it back with the console consumer`);
    const records = await consume(config, topic, new Set(rows.map((r) => r.id)));
    // Different keys may land on different partitions: match records by event id, not by order.
    const problems = rows.flatMap((expected) => compare(expected, records.find((record) => record.headers['id'] === expected.id)));
    if (problems.length > 0) throw new InfraError('CONNECTOR_FAILED', `outbox relay check failed:\n  ${problems.join('\n  ')}`);
    const lags = records.map((record) => record.timestamp - insertedAt);
    say('check', `OK: ${records.length} records with exact key, value and headers (relay lag ${Math.max(...lags)} ms, check ${elapsed(insertedAt)})`);
  } finally {
    await dropOutbox(db, config).catch(() => undefined);
    await db.end();
  }
}

function row(topic: string, traceparent: string | null): OutboxRow {
  const jobId = randomUUID();
  return {
    id: randomUUID(),
    aggregatetype: 'job',
    aggregateid: jobId,
    type: 'SmokeChecked',
    payload: { jobId, note: 'quotes " and, commas', nested: { n: 1, list: [1, 2] } },
    topic,
    traceparent,
  };
}

// The same shape as `createOutboxTableSql` in libs/outbox. Written out here because this CLI runs
// unbuilt on Node's type stripping and cannot load the workspace libraries; if the outbox
// contract changes, change both (the connector JSON reads these column names).
async function createOutbox(db: pg.Client, config: StackConfig): Promise<void> {
  await dropOutbox(db, config);
  await db.query(`CREATE SCHEMA ${SCHEMA}`);
  await db.query(`CREATE TABLE ${SCHEMA}.outbox (
    id uuid PRIMARY KEY,
    aggregatetype text NOT NULL,
    aggregateid text NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    topic text NOT NULL,
    traceparent text,
    created_at timestamptz NOT NULL DEFAULT now()
  )`);
  await db.query(`ALTER PUBLICATION ${config.connector.publication} ADD TABLE ${SCHEMA}.outbox`);
}

async function dropOutbox(db: pg.Client, config: StackConfig): Promise<void> {
  const member = await db.query('SELECT 1 FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2', [config.connector.publication, SCHEMA]);
  if (member.rowCount) await db.query(`ALTER PUBLICATION ${config.connector.publication} DROP TABLE ${SCHEMA}.outbox`);
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}

interface ConsumedRecord {
  timestamp: number;
  headers: Record<string, string | null>;
  key: string;
  value: string;
}

/**
 * Kafka's console consumer, one record per line: CreateTime:<ms> TAB headers TAB key TAB value.
 * Streams its output and stops it (SIGTERM: it commits its offsets) once every wanted event id was seen.
 */
function consume(config: StackConfig, topic: string, wanted: ReadonlySet<string>): Promise<ConsumedRecord[]> {
  const args = javaArgs(config, kafkaJars(config), 'org.apache.kafka.tools.consumer.ConsoleConsumer', [
    '--bootstrap-server', config.kafka.brokers,
    '--topic', topic,
    '--group', GROUP,
    // Only for the group's very first run; afterwards it resumes after the last check.
    '--from-beginning',
    '--formatter-property', 'print.timestamp=true',
    '--formatter-property', 'print.headers=true',
    '--formatter-property', 'print.key=true',
    '--formatter-property', 'key.separator=\t',
    '--formatter-property', 'headers.separator=,',
    '--formatter-property', 'headers.key.separator=:',
    '--formatter-property', `null.literal=${NULL_LITERAL}`,
  ], false);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(requireJava(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const found: ConsumedRecord[] = [];
    let pending = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), CONSUME_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines.filter((candidate) => candidate.startsWith('CreateTime:'))) {
        const record = parseRecord(line);
        if (wanted.has(record.headers['id'] ?? '')) found.push(record);
      }
      if (found.length >= wanted.size) child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      if (found.length >= wanted.size) resolvePromise(found);
      else reject(new InfraError('CONNECTOR_FAILED', `only ${found.length} of ${wanted.size} records reached ${topic} within ${CONSUME_TIMEOUT_MS / 1000}s\n${stderr}`));
    });
  });
}

function parseRecord(line: string): ConsumedRecord {
  const [time = '', headers = '', key = '', ...value] = line.split('\t');
  return {
    timestamp: Number(time.slice('CreateTime:'.length)),
    headers: Object.fromEntries(
      headers.split(',').map((pair) => {
        const [name = '', text = ''] = pair.split(/:(.*)/s);
        return [name, text === NULL_LITERAL ? null : text];
      }),
    ),
    key,
    value: value.join('\t'),
  };
}

function compare(expected: OutboxRow, actual: ConsumedRecord | undefined): string[] {
  if (!actual) return [`event ${expected.id}: missing`];
  const problems: string[] = [];
  const label = `event ${expected.id}`;
  if (actual.key !== expected.aggregateid) problems.push(`${label}: key ${actual.key} != aggregateid ${expected.aggregateid}`);
  let value: unknown;
  try {
    value = JSON.parse(actual.value);
  } catch {
    problems.push(`${label}: value is not JSON: ${actual.value}`);
  }
  if (value !== undefined && !isDeepStrictEqual(value, expected.payload)) {
    problems.push(`${label}: value ${actual.value} != payload ${JSON.stringify(expected.payload)} (double-encoded or enveloped?)`);
  }
  const wantHeaders = { id: expected.id, eventType: expected.type, aggregateType: expected.aggregatetype, traceparent: expected.traceparent };
  if (!isDeepStrictEqual(actual.headers, wantHeaders)) {
    problems.push(`${label}: headers ${JSON.stringify(actual.headers)} != ${JSON.stringify(wantHeaders)}`);
  }
  return problems;
}
