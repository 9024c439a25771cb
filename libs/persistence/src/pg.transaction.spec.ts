import { PgTransaction, type PgClient } from './pg.transaction';

/**
 * A pg client that records, in order, what it is handed and when its socket is corked, and
 * answers each statement only when the test says so: what was sent before an answer came is
 * what went out without waiting for it.
 */
function recordingClient(options: { pipeline: boolean }) {
  const log: string[] = [];
  const pending: Array<{ text: string; answer: () => void; fail: (error: Error) => void }> = [];
  const client: PgClient = {
    pipeline: options.pipeline,
    connection: { stream: { cork: () => log.push('cork'), uncork: () => log.push('uncork') } },
    query: <T>({ text }: { text: string }) => {
      log.push(`send ${text}`);
      return new Promise<{ rows: T[]; rowCount: number | null }>((resolve, reject) => {
        pending.push({ text, answer: () => resolve({ rows: [], rowCount: 0 }), fail: reject });
      });
    },
  };
  /** Answers the oldest unanswered statement (the server answers in order). */
  const answer = async (): Promise<void> => {
    pending.shift()!.answer();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const fail = async (error: Error): Promise<void> => {
    pending.shift()!.fail(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { client, log, answer, fail, pending };
}

const STATEMENT = { name: 'lh_x', text: 'UPDATE t SET n = n + 1', values: [] };

describe('PgTransaction', () => {
  it('sends BEGIN and the first statement in one corked write on a pipelining client, before BEGIN is answered', async () => {
    const { client, log, answer } = recordingClient({ pipeline: true });
    const transaction = new PgTransaction(client);
    const first = transaction.query(STATEMENT);
    expect(log).toEqual(['cork', 'send BEGIN', `send ${STATEMENT.text}`, 'uncork']);
    expect(transaction.started).toBe(true);
    await answer();
    await answer();
    await first;
    const second = transaction.query(STATEMENT);
    await answer();
    await second;
    const committed = transaction.commit();
    await new Promise((resolve) => setImmediate(resolve));
    await answer();
    await committed;
    expect(log).toEqual(['cork', 'send BEGIN', `send ${STATEMENT.text}`, 'uncork', `send ${STATEMENT.text}`, 'send COMMIT']);
  });

  it('waits for BEGIN to be answered before the first statement on a client that does not pipeline', async () => {
    const { client, log, answer } = recordingClient({ pipeline: false });
    const transaction = new PgTransaction(client);
    const first = transaction.query(STATEMENT);
    expect(log).toEqual(['send BEGIN']);
    await answer();
    expect(log).toEqual(['send BEGIN', `send ${STATEMENT.text}`]);
    await answer();
    await first;
  });

  it('keeps the issue order on a client that does not pipeline, each statement after the answer to the one before', async () => {
    const { client, log, answer } = recordingClient({ pipeline: false });
    const transaction = new PgTransaction(client);
    const first = transaction.query({ ...STATEMENT, text: 'first' });
    const second = transaction.query({ ...STATEMENT, text: 'second' });
    expect(log).toEqual(['send BEGIN']);
    await answer();
    expect(log).toEqual(['send BEGIN', 'send first']);
    await answer();
    expect(log).toEqual(['send BEGIN', 'send first', 'send second']);
    await answer();
    await Promise.all([first, second]);
  });

  it('sends no statement after a failed BEGIN on a client that does not pipeline', async () => {
    const { client, log, fail } = recordingClient({ pipeline: false });
    const transaction = new PgTransaction(client);
    const first = transaction.query({ ...STATEMENT, text: 'first' }).catch((error: Error) => error.message);
    const second = transaction.query({ ...STATEMENT, text: 'second' }).catch((error: Error) => error.message);
    await fail(new Error('connection lost'));
    expect(await first).toBe('connection lost');
    expect(await second).toBe('connection lost');
    expect(log).toEqual(['send BEGIN']);
  });

  it('sends nothing, not even BEGIN or COMMIT, when no statement was sent', async () => {
    const { client, log } = recordingClient({ pipeline: true });
    const transaction = new PgTransaction(client);
    await transaction.commit();
    await transaction.rollback();
    expect(transaction.started).toBe(false);
    expect(log).toEqual([]);
  });

  it('fails the commit when BEGIN failed, without an unhandled rejection, and rolls back quietly', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const { client, log, fail, pending } = recordingClient({ pipeline: true });
      const transaction = new PgTransaction(client);
      const first = transaction.query(STATEMENT);
      await fail(new Error('connection lost'));
      await fail(new Error('connection lost'));
      await expect(first).rejects.toThrow('connection lost');
      await expect(transaction.commit()).rejects.toThrow('connection lost');
      const rolledBack = transaction.rollback();
      await new Promise((resolve) => setImmediate(resolve));
      pending.shift()!.fail(new Error('connection lost'));
      await expect(rolledBack).resolves.toBeUndefined();
      expect(log).toEqual(['cork', 'send BEGIN', `send ${STATEMENT.text}`, 'uncork', 'send ROLLBACK']);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
