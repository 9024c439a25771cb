import type { DataSource } from 'typeorm';
import { sqlFromQueryRunner, type Sql } from './sql.executor';

/**
 * Runs `work` in one Postgres transaction (READ COMMITTED) and commits when it resolves; any
 * throw rolls everything back. The connection returns to the pool either way.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const result = await work(sqlFromQueryRunner(runner));
    await runner.commitTransaction();
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/** Runs `work` on a pooled connection without an explicit transaction (single statements). */
export async function withConnection<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    return await work(sqlFromQueryRunner(runner));
  } finally {
    await runner.release();
  }
}
