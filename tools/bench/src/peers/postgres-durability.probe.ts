import { Client } from 'pg';

/** The server settings that decide whether a committed enqueue survives a crash. */
export interface PostgresDurability {
  fsync: string;
  synchronousCommit: string;
  version: string;
}

/** Reads `fsync`, `synchronous_commit` and the server version, for the report's method. */
export async function readPostgresDurability(databaseUrl: string): Promise<PostgresDurability> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'longhaul-bench-peers' });
  await client.connect();
  try {
    const show = async (name: string) => ((await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name] ?? 'unknown');
    return { fsync: await show('fsync'), synchronousCommit: await show('synchronous_commit'), version: await show('server_version') };
  } finally {
    await client.end();
  }
}

/** `fsync = on, synchronous_commit = on (Postgres 16.4)`. */
export function describeDurability(d: PostgresDurability): string {
  return `\`fsync = ${d.fsync}\`, \`synchronous_commit = ${d.synchronousCommit}\` (Postgres ${d.version})`;
}
