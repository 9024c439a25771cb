import type { DataSource } from 'typeorm';

/**
 * Brings a service's schema up to date: creates the schema (TypeORM keeps its migrations table
 * inside it, so it must exist first) and runs pending migrations, each in its own transaction.
 * Safe to run from several instances at once: an advisory lock serialises them.
 * Returns the names of the migrations it applied.
 */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`longhaul.migrate.${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`longhaul.migrate.${schema}`]).catch(() => undefined);
    await runner.release();
  }
}
