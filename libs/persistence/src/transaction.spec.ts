import { withPgClient } from './testing';
import type { DataSource } from 'typeorm';
import { afterCommit, afterRollback, type Sql } from './sql.executor';
import { notifyAfterCommit } from './post-commit.notifier';
import { inTransaction, withConnection } from './transaction';

function fakeDataSource(log: string[], options: { failCommit?: boolean } = {}): DataSource {
  const runner = {
    isTransactionActive: false,
    connect: async () => undefined,
    release: async () => log.push('release'),
    startTransaction: async () => {
      runner.isTransactionActive = true;
    },
    commitTransaction: async () => {
      if (options.failCommit) throw new Error('commit failed');
      runner.isTransactionActive = false;
      log.push('commit');
    },
    rollbackTransaction: async () => {
      runner.isTransactionActive = false;
      log.push('rollback');
    },
    query: async () => ({ records: [], affected: 0 }),
  };
  return {
    createQueryRunner: () => withPgClient(runner),
    // Where notifications go: the data source's own pool (the post-commit notifier's statement).
    query: async (_text: string, params: unknown[]) => log.push(...(params[1] as string[]).map((payload) => `notify ${payload}`)),
  } as unknown as DataSource;
}

/** A statement, so that the transaction has begun and has something to commit or roll back. */
const touch = (sql: Sql): Promise<number> => sql.execute('UPDATE t SET n = n + 1');

describe('after-commit effects', () => {
  it('run after the commit, in order', async () => {
    const log: string[] = [];
    await inTransaction(fakeDataSource(log), async (sql) => {
      await touch(sql);
      afterCommit(sql, () => log.push('first'));
      afterCommit(sql, () => log.push('second'));
      log.push('work');
    });
    expect(log).toEqual(['work', 'commit', 'first', 'second', 'release']);
  });

  it('never run when the transaction rolls back', async () => {
    const log: string[] = [];
    await expect(
      inTransaction(fakeDataSource(log), async (sql) => {
        afterCommit(sql, () => log.push('effect'));
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    await expect(
      inTransaction(fakeDataSource(log, { failCommit: true }), async (sql) => {
        await touch(sql);
        afterCommit(sql, () => log.push('effect'));
      }),
    ).rejects.toThrow('commit failed');
    expect(log).not.toContain('effect');
  });

  it('do not turn a committed transaction into a failure when they throw', async () => {
    const log: string[] = [];
    const result = await inTransaction(fakeDataSource(log), async (sql) => {
      afterCommit(sql, () => {
        throw new Error('metrics broke');
      });
      afterCommit(sql, () => log.push('next'));
      return 42;
    });
    expect(result).toBe(42);
    expect(log).toContain('next');
  });

  it('run at once outside a transaction and on a test double without the hook', async () => {
    const log: string[] = [];
    await withConnection(fakeDataSource(log), async (sql) => {
      afterCommit(sql, () => log.push('effect'));
      log.push('work');
    });
    expect(log).toEqual(['effect', 'work', 'release']);
    const double: Sql = { rows: async () => [], execute: async () => 0 };
    afterCommit(double, () => log.push('double'));
    expect(log).toContain('double');
  });
});

describe('after-rollback effects', () => {
  it('run when the work throws or the commit fails, after the rollback', async () => {
    const log: string[] = [];
    await expect(
      inTransaction(fakeDataSource(log), async (sql) => {
        await touch(sql);
        afterRollback(sql, () => log.push('given back'));
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(log).toEqual(['rollback', 'given back', 'release']);
    const failing: string[] = [];
    await expect(
      inTransaction(fakeDataSource(failing, { failCommit: true }), async (sql) => {
        await touch(sql);
        afterRollback(sql, () => failing.push('given back'));
      }),
    ).rejects.toThrow('commit failed');
    expect(failing).toContain('given back');
  });

  it('never run after a commit, nor outside a transaction', async () => {
    const log: string[] = [];
    await inTransaction(fakeDataSource(log), async (sql) => afterRollback(sql, () => log.push('given back')));
    await withConnection(fakeDataSource(log), async (sql) => afterRollback(sql, () => log.push('given back')));
    expect(log).not.toContain('given back');
  });
});

describe('notifyAfterCommit', () => {
  it('sends after the commit, on the data source, not inside the transaction', async () => {
    const log: string[] = [];
    await inTransaction(fakeDataSource(log), async (sql) => {
      await touch(sql);
      notifyAfterCommit(sql, 'feed', 'a:1');
      await new Promise((resolve) => setImmediate(resolve));
      log.push('work done');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(['work done', 'commit', 'release', 'notify a:1']);
  });

  it('sends nothing for a transaction that did not commit', async () => {
    const log: string[] = [];
    await expect(
      inTransaction(fakeDataSource(log, { failCommit: true }), async (sql) => {
        await touch(sql);
        notifyAfterCommit(sql, 'feed', 'a:1');
      }),
    ).rejects.toThrow('commit failed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log.filter((line) => line.startsWith('notify'))).toEqual([]);
  });
});
