import { DataSource, type MigrationInterface } from 'typeorm';

/** Options of {@link createDataSource}. */
export interface DataSourceOptions {
  /** Postgres connection URL. */
  url: string;
  /** The one schema this service owns and writes; its migrations table lives there too. */
  schema: string;
  /** This service's migrations, oldest first. */
  migrations: Array<new () => MigrationInterface>;
  /** `application_name` on every connection, visible in `pg_stat_activity`. */
  applicationName: string;
  /** @defaultValue 10 */
  poolSize?: number;
}

/** A TypeORM data source bound to one service's schema. Not yet initialised. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    applicationName: options.applicationName,
    // `pipeline`: pg writes a statement without waiting for the answer to the one before, so a
    // transaction's BEGIN leaves with its first statement and independent statements share a
    // round trip (`PgTransaction`, `Sql.rows`). Cursors and row-limited portals are refused on
    // such a client; nothing here uses them.
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 10_000, pipeline: true },
  });
}
