import type { DataSource } from 'typeorm';
import type { PgClient } from './pg.transaction';
import { afterCommit, settleAtCommit, settleBeforeCommit } from './sql.executor';
import { inTransaction, withConnection } from './transaction';

/*
 * Writes settled at commit, against a stand-in pipelining pg client that records what it is sent
 * and answers only when the test says so, in order, as Postgres does: what went out before an
 * answer came is what was sent without waiting for it. A statement whose text starts with `bad`
 * fails, and, as in Postgres, everything after it until the transaction ends fails with it and a
 * COMMIT is answered by rolling back.
 */
function pipeliningDatabase() {
  const log: string[] = [];
  const queue: Array<{ text: string; answer: () => void }> = [];
  let aborted = false;
  const client: PgClient & { release: () => void } = {
    pipeline: true,
    release: () => undefined,
    query: <T>({ text }: { text: string }) => {
      log.push(`send ${text}`);
      return new Promise<{ rows: T[]; rowCount: number | null }>((resolve, reject) => {
        queue.push({
          text,
          answer: () => {
            if (text === 'BEGIN') aborted = false;
            if (text === 'COMMIT' || text === 'ROLLBACK') {
              log.push(aborted || text === 'ROLLBACK' ? 'rolled back' : 'committed');
              aborted = false;
              return resolve({ rows: [], rowCount: null });
            }
            if (aborted || text.startsWith('bad')) {
              aborted = true;
              return reject(new Error(`${text} failed`));
            }
            resolve({ rows: [], rowCount: 1 });
          },
        });
      });
    },
  };
  const dataSource = {
    createQueryRunner: () => ({ connect: async () => client, release: async () => undefined }),
    query: async () => undefined,
  } as unknown as DataSource;
  /** Answers every statement sent so far, and what they lead to, until nothing is left. */
  const answerAll = async (): Promise<void> => {
    for (let turn = 0; turn < 50; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = queue.shift();
      if (next) next.answer();
    }
  };
  return { dataSource, log, answerAll };
}

describe('writes settled at commit', () => {
  it('send COMMIT right behind them, without waiting for their answers, and commit when all succeed', async () => {
    const { dataSource, log, answerAll } = pipeliningDatabase();
    const effects: string[] = [];
    const done = inTransaction(dataSource, async (sql) => {
      await settleAtCommit(sql, sql.execute('UPDATE a'));
      await settleAtCommit(sql, sql.execute('UPDATE b'));
      afterCommit(sql, () => effects.push('after commit'));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['send BEGIN', 'send UPDATE a', 'send UPDATE b', 'send COMMIT']);
    await answerAll();
    await done;
    expect(log.slice(-1)).toEqual(['committed']);
    expect(effects).toEqual(['after commit']);
  });

  it('roll the transaction back and throw when one of them failed, though COMMIT was already sent', async () => {
    const { dataSource, log, answerAll } = pipeliningDatabase();
    const effects: string[] = [];
    const done = inTransaction(dataSource, async (sql) => {
      await settleAtCommit(sql, sql.execute('bad UPDATE'));
      await settleAtCommit(sql, sql.execute('UPDATE b'));
      afterCommit(sql, () => effects.push('after commit'));
    });
    const outcome = done.catch((error: Error) => error.message);
    await answerAll();
    expect(await outcome).toBe('bad UPDATE failed');
    expect(log).toContain('rolled back');
    expect(log).not.toContain('committed');
    expect(effects).toEqual([]);
  });

  it('wait for a checked write before sending COMMIT, so a failed check rolls back', async () => {
    const { dataSource, log, answerAll } = pipeliningDatabase();
    const done = inTransaction(dataSource, async (sql) => {
      await settleAtCommit(sql, sql.execute('UPDATE a'));
      await settleBeforeCommit(
        sql,
        sql.execute('UPDATE b').then(() => {
          throw new Error('version 3, not 2');
        }),
      );
    });
    const outcome = done.catch((error: Error) => error.message);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['send BEGIN', 'send UPDATE a', 'send UPDATE b']);
    await answerAll();
    expect(await outcome).toBe('version 3, not 2');
    expect(log).not.toContain('send COMMIT');
    expect(log.slice(-2)).toEqual(['send ROLLBACK', 'rolled back']);
  });

  it('are waited for at once outside a transaction', async () => {
    const { dataSource, answerAll } = pipeliningDatabase();
    const done = withConnection(dataSource, async (sql) => settleAtCommit(sql, sql.execute('bad UPDATE')));
    const outcome = done.catch((error: Error) => error.message);
    await answerAll();
    expect(await outcome).toBe('bad UPDATE failed');
  });
});
