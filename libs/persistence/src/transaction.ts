import type { DataSource } from 'typeorm';
import { postCommitNotifier } from './post-commit.notifier';
import { runQuietly, sqlFromQueryRunner, type Sql, type TransactionHooks } from './sql.executor';

/**
 * Runs `work` in one Postgres transaction (READ COMMITTED) and commits when it resolves; any
 * throw rolls everything back. The connection returns to the pool either way. Effects handed to
 * `sql.afterCommit` run after the commit, and not at all after a rollback; so are notifications
 * sent (`notifyAfterCommit`). Effects handed to `sql.afterRollback` run only when it does not
 * commit. A commit that fails may still have happened; whoever reserved something for it must
 * cope with both.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const hooks: TransactionHooks = { onCommit: [], onRollback: [] };
  try {
    await runner.startTransaction();
    const result = await work(sqlFromQueryRunner(runner, hooks, postCommitNotifier(dataSource)));
    await runner.commitTransaction();
    for (const effect of hooks.onCommit) runQuietly(effect);
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    for (const effect of hooks.onRollback) runQuietly(effect);
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
    return await work(sqlFromQueryRunner(runner, undefined, postCommitNotifier(dataSource)));
  } finally {
    await runner.release();
  }
}
