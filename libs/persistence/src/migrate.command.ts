import type { MigrationInterface } from 'typeorm';
import { createDataSource } from './data-source.factory';
import { runMigrations } from './migration.runner';

/** Options of {@link migrateCommand}. */
export interface MigrateCommandOptions {
  /** The service, for messages. */
  service: string;
  url: string;
  schema: string;
  migrations: Array<new () => MigrationInterface>;
}

/**
 * The body of each app's `migrate` target (`nx run <app>:migrate`): connects, applies the
 * service's pending migrations, reports them, disconnects. Sets a failing exit code on error.
 */
export async function migrateCommand(options: MigrateCommandOptions): Promise<void> {
  const dataSource = createDataSource({ ...options, applicationName: `${options.service}-migrate` });
  try {
    await dataSource.initialize();
    const applied = await runMigrations(dataSource, options.schema);
    console.log(applied.length ? `${options.service}: applied ${applied.join(', ')}` : `${options.service}: schema up to date`);
  } catch (error) {
    console.error(`${options.service}: migration failed:`, error);
    process.exitCode = 1;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}
