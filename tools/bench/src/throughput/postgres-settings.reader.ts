import type { DbProbe } from '@longhaul/testing';

/** The server settings that decide what a commit costs. */
export interface DurabilitySettings {
  synchronous_commit: string;
  fsync: string;
  wal_sync_method: string;
  full_page_writes: string;
  server_version: string;
}

const NAMES = ['synchronous_commit', 'fsync', 'wal_sync_method', 'full_page_writes', 'server_version'] as const;

/** Reads {@link DurabilitySettings} from `pg_settings`. */
export async function readDurabilitySettings(db: DbProbe): Promise<DurabilitySettings> {
  const rows = await db.rows<{ name: string; setting: string }>(`SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])`, [[...NAMES]]);
  const get = (name: string) => rows.find((r) => r.name === name)?.setting ?? 'unknown';
  return Object.fromEntries(NAMES.map((name) => [name, get(name)])) as unknown as DurabilitySettings;
}

/** True when a returned COMMIT means the WAL is on disk. */
export function commitsAreDurable(settings: DurabilitySettings): boolean {
  return settings.synchronous_commit !== 'off' && settings.fsync === 'on';
}

/** `synchronous_commit=on, fsync=on, wal_sync_method=fdatasync, full_page_writes=on`. */
export function describeSettings(settings: DurabilitySettings): string {
  return `synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}, wal_sync_method=${settings.wal_sync_method}, full_page_writes=${settings.full_page_writes}`;
}
