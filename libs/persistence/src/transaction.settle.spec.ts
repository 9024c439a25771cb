import type { DataSource } from 'typeorm';
import type { PgClient } from './pg.transaction';
import { afterCommit, insertAtCommit, MAX_ROWS_PER_INSERT, settleAtCommit, settleBeforeCommit, type RowsTarget } from './sql.executor';
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
  const values: unknown[][] = [];
  const queue: Array<{ text: string; answer: () => void }> = [];
  let aborted = false;
  const client: PgClient & { release: () => void } = {
    pipeline: true,
    release: () => undefined,
    query: <T>({ text, values: params }: { text: string; values?: unknown[] }) => {
      log.push(`send ${text}`);
      values.push(params ?? []);
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
            if (aborted || text.includes('bad')) {
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
  return { dataSource, log, values, answerAll };
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

describe('rows held to commit', () => {
  const jobs: RowsTarget = { table: '"s".jobs', columns: ['id', 'name'] };
  const marks: RowsTarget = { table: '"s".marks', columns: ['n'] };

  it("go out right before COMMIT, one statement a table, in the order they were handed over", async () => {
    const { dataSource, log, values, answerAll } = pipeliningDatabase();
    const done = inTransaction(dataSource, async (sql) => {
      await insertAtCommit(sql, jobs, [1, 'a']);
      await sql.execute('UPDATE x');
      await insertAtCommit(sql, marks, [9]);
      await insertAtCommit(sql, jobs, [2, 'b']);
    });
    await answerAll();
    await done;
    expect(log).toEqual([
      'send BEGIN',
      'send UPDATE x',
      'send INSERT INTO "s".jobs (id, name) VALUES ($1, $2), ($3, $4)',
      'send INSERT INTO "s".marks (n) VALUES ($1)',
      'send COMMIT',
      'committed',
    ]);
    expect(values.slice(2, 4)).toEqual([[1, 'a', 2, 'b'], [9]]);
  });

  it(`go out in statements of at most ${MAX_ROWS_PER_INSERT} rows`, async () => {
    const { dataSource, values, answerAll } = pipeliningDatabase();
    const done = inTransaction(dataSource, async (sql) => {
      for (let n = 0; n <= MAX_ROWS_PER_INSERT; n++) await insertAtCommit(sql, marks, [n]);
    });
    await answerAll();
    await done;
    expect(values.slice(1, 3).map((params) => params.length)).toEqual([MAX_ROWS_PER_INSERT, 1]);
    expect(values[2]).toEqual([MAX_ROWS_PER_INSERT]);
  });

  it('roll the transaction back when their statement fails', async () => {
    const { dataSource, log, answerAll } = pipeliningDatabase();
    const done = inTransaction(dataSource, async (sql) => {
      await sql.execute('UPDATE x');
      await insertAtCommit(sql, { table: 'bad_table', columns: ['n'] }, [1]);
    });
    const outcome = done.catch((error: Error) => error.message);
    await answerAll();
    expect(await outcome).toBe('INSERT INTO bad_table (n) VALUES ($1) failed');
    expect(log).toContain('rolled back');
    expect(log).not.toContain('committed');
  });

  it('are never written when the work throws', async () => {
    const { dataSource, log, answerAll } = pipeliningDatabase();
    const done = inTransaction(dataSource, async (sql) => {
      await sql.execute('UPDATE x');
      await insertAtCommit(sql, marks, [1]);
      throw new Error('handler failed');
    });
    const outcome = done.catch((error: Error) => error.message);
    await answerAll();
    expect(await outcome).toBe('handler failed');
    expect(log.filter((line) => line.startsWith('send INSERT'))).toEqual([]);
    expect(log.slice(-1)).toEqual(['rolled back']);
  });

  it('are inserted at once outside a transaction', async () => {
    const { dataSource, log, values, answerAll } = pipeliningDatabase();
    const done = withConnection(dataSource, async (sql) => insertAtCommit(sql, jobs, [1, 'a']));
    await answerAll();
    await done;
    expect(log).toEqual(['send INSERT INTO "s".jobs (id, name) VALUES ($1, $2)']);
    expect(values).toEqual([[1, 'a']]);
  });
});
