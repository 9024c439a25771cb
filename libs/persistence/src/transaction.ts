import type { DataSource } from 'typeorm';
import { runQuietly, sqlFromQueryRunner, type Sql } from './sql.executor';

/**
 * Runs `work` in one Postgres transaction (READ COMMITTED) and commits when it resolves; any
 * throw rolls everything back. The connection returns to the pool either way. Effects handed to
 * `sql.afterCommit` run after the commit, and not at all after a rollback.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const onCommit: Array<() => void> = [];
  try {
    await runner.startTransaction();
    const result = await work(sqlFromQueryRunner(runner, onCommit));
    await runner.commitTransaction();
    for (const effect of onCommit) runQuietly(effect);
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
