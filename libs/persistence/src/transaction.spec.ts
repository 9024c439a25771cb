import type { DataSource } from 'typeorm';
import { afterCommit, type Sql } from './sql.executor';
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
  return { createQueryRunner: () => runner } as unknown as DataSource;
}

describe('after-commit effects', () => {
  it('run after the commit, in order', async () => {
    const log: string[] = [];
    await inTransaction(fakeDataSource(log), async (sql) => {
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
    await expect(inTransaction(fakeDataSource(log, { failCommit: true }), async (sql) => afterCommit(sql, () => log.push('effect')))).rejects.toThrow(
      'commit failed',
    );
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
