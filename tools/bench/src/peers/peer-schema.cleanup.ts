import { Client } from 'pg';

/** The schemas the Postgres peers (and the relay's reference row) install into: theirs alone, dropped before and after each run. */
export const PEER_SCHEMAS = { pgBoss: 'bench_pgboss', graphileWorker: 'bench_graphile', relayFloor: 'bench_relay_floor' } as const;

/**
 * `DROP SCHEMA … CASCADE` for one of {@link PEER_SCHEMAS}: removes whatever an earlier,
 * interrupted run left, and this run's tables at the end. Refuses any other name, so a typo can
 * never drop Longhaul's own schemas on the shared database.
 */
export async function dropPeerSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!Object.values(PEER_SCHEMAS).includes(schema as never)) throw new Error(`refusing to drop schema ${schema}: not a peer benchmark schema`);
  const client = new Client({ connectionString: databaseUrl, application_name: 'longhaul-bench-peers' });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
