import type { DataSource } from 'typeorm';
import { postCommitNotifier } from './post-commit.notifier';
import { PgTransaction, type PgClient } from './pg.transaction';
import { flushRowsAtCommit, runQuietly, sqlOn, type Sql, type TransactionHooks } from './sql.executor';

/**
 * Runs `work` in one Postgres transaction (READ COMMITTED) and commits when it resolves; any
 * throw rolls everything back. The connection returns to the pool either way. Effects handed to
 * `sql.afterCommit` run after the commit, and not at all after a rollback; so are notifications
 * sent (`notifyAfterCommit`). Effects handed to `sql.afterRollback` run only when it does not
 * commit. Rows handed to `insertAtCommit` go out, one statement a table, right before COMMIT.
 * A commit that fails may still have happened; whoever reserved something for it must cope with
 * both.
 *
 * BEGIN, COMMIT and ROLLBACK go straight to the pg client, BEGIN with the first statement
 * ({@link PgTransaction}); TypeORM's own transaction calls would send BEGIN alone, a round trip
 * of its own.
 */
export async function inTransaction<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  const transaction = new PgTransaction((await runner.connect()) as PgClient);
  const hooks: TransactionHooks = { onCommit: [], onRollback: [], pending: [], rows: new Map() };
  try {
    const sql = sqlOn(transaction, hooks, postCommitNotifier(dataSource));
    const result = await work(sql);
    flushRowsAtCommit(sql, hooks);
    await commitAfter(transaction, hooks.pending);
    for (const effect of hooks.onCommit) runQuietly(effect);
    return result;
  } catch (error) {
    await transaction.rollback();
    for (const effect of hooks.onRollback) runQuietly(effect);
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * Commits `transaction` once every write of `pending` (issued without waiting: `settleAtCommit`,
 * `settleBeforeCommit`) has succeeded, and throws the first failure otherwise (the caller then
 * rolls back). Without checked writes COMMIT goes out at once, behind the writes: if one of them
 * failed, Postgres has aborted the transaction and answers COMMIT by rolling it back, so the
 * commit counts only when every write succeeded. A checked write's check runs on its answer, so
 * with one of them COMMIT waits for every answer first.
 */
async function commitAfter(transaction: PgTransaction, pending: TransactionHooks['pending']): Promise<void> {
  const committing = pending.some((write) => write.checked) ? null : transaction.commit();
  committing?.catch(() => undefined);
  const outcomes = await Promise.allSettled(pending.map((write) => write.promise));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) {
    await committing?.catch(() => undefined);
    throw failed.reason;
  }
  await (committing ?? transaction.commit());
}

/** Runs `work` on a pooled connection without an explicit transaction (single statements). */
export async function withConnection<T>(dataSource: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as PgClient;
  try {
    return await work(sqlOn(client, undefined, postCommitNotifier(dataSource)));
  } finally {
    await runner.release();
  }
}
