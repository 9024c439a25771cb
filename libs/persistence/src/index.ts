export * from './sql.executor';
export * from './transaction';
export * from './data-source.factory';
export * from './migration.runner';
export * from './id.generator';
export type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
export * from './migrate.command';
export * from './effect-ledger';
export * from './batch.deleter';
