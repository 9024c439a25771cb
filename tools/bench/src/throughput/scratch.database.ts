import { Client } from 'pg';

/**
 * `url` with its database replaced by `name`: the same server, user and password.
 * E.g. `postgres://u:p@127.0.0.1:5432/longhaul` → `postgres://u:p@127.0.0.1:5432/longhaul_bench_submit`.
 */
export function scratchDatabaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Only names the benchmarks make up: lower-case, digits, underscores, never the stack's own. */
function assertScratchName(name: string): void {
  if (!/^longhaul_bench_[a-z0-9_]+$/.test(name)) throw new Error(`not a scratch database name: ${name}`);
}

async function onServer(url: string, statement: string): Promise<void> {
  // The maintenance database: a database cannot be created or dropped from inside itself.
  const client = new Client({ connectionString: scratchDatabaseUrl(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates the empty database `name` on the server of `url` (dropping one left by an interrupted
 * run first) and returns its URL. It sits beside the stack's database, outside the Debezium
 * connector's, so nothing written there is relayed to Kafka.
 */
export async function createScratchDatabase(url: string, name: string): Promise<string> {
  assertScratchName(name);
  await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(url, `CREATE DATABASE ${name}`);
  return scratchDatabaseUrl(url, name);
}

/** Drops the database `name`, closing whatever is still connected to it. */
export async function dropScratchDatabase(url: string, name: string): Promise<void> {
  assertScratchName(name);
  await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
