/**
 * Idempotent set-up of a running Postgres: the `longhaul` role and database,
 * and the outbox publication (infra/postgres/longhaul-outbox.publication.sql).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import pg from 'pg';

import type { StackConfig } from './stack.config.mts';

/** A client of `database` as the stack's superuser (not yet connected). */
export function client(config: StackConfig, database: string): pg.Client {
  return new pg.Client({
    host: config.host,
    port: config.ports.postgres,
    user: config.postgres.user,
    password: config.postgres.password,
    database,
    connectionTimeoutMillis: 2_000,
  });
}

/** `select 1` on `database` succeeds. */
export async function canQuery(config: StackConfig, database: string): Promise<boolean> {
  const db = client(config, database);
  db.on('error', () => undefined);
  try {
    await db.connect();
    await db.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await db.end().catch(() => undefined);
  }
}

export async function bootstrapDatabase(config: StackConfig): Promise<void> {
  const { user, password, database } = config.postgres;
  const admin = client(config, 'postgres');
  await admin.connect();
  try {
    // initdb made `longhaul` the bootstrap superuser; restate what we rely on.
    await admin.query(`ALTER ROLE ${quoteIdent(user)} WITH LOGIN SUPERUSER REPLICATION PASSWORD ${quoteLiteral(password)}`);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${quoteIdent(database)} OWNER ${quoteIdent(user)}`);
  } finally {
    await admin.end();
  }
  const app = client(config, database);
  await app.connect();
  try {
    await app.query(readFileSync(join(config.repoRoot, 'infra', 'postgres', 'longhaul-outbox.publication.sql'), 'utf8'));
  } finally {
    await app.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
