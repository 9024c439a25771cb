import { withPgClient } from '@longhaul/persistence/testing';
import type { DataSource, Sql } from '@longhaul/persistence';
import { SuccessBatcher } from './success.batcher';
import type { Lease, WorkItem } from './work-item';
import { WorkQueueRepository } from './work-queue.repository';

/*
 * The batcher against a stand-in database that records each transaction's statements and how it
 * ended, with items whose lease holds (`held`) and a status for the rest. The real statement runs
 * in the integration suites.
 */
function database(items: { held: Set<string>; status: Record<string, string>; failPublishOf?: string }) {
  const transactions: Array<{ statements: string[]; outcome: 'commit' | 'rollback' }> = [];
  let current: string[] = [];
  const dataSource = {
    createQueryRunner: () =>
      withPgClient({
        release: async () => undefined,
        startTransaction: async () => {
          current = [];
        },
        commitTransaction: async () => {
          transactions.push({ statements: current, outcome: 'commit' });
        },
        rollbackTransaction: async () => {
          transactions.push({ statements: current, outcome: 'rollback' });
        },
        query: async (text: string, params: unknown[] = []) => {
          if (text.includes('AS f(id, token, result)')) {
            const ids = params[0] as string[];
            current.push(`finish ${ids.join(',')}`);
            return { records: ids.filter((id) => items.held.has(id)).map((id) => ({ id })) };
          }
          if (text.startsWith('SELECT status')) {
            current.push(`status ${params[0] as string}`);
            return { records: [{ status: items.status[params[0] as string] ?? 'running' }] };
          }
          current.push(text);
          return { records: [], affected: 1 };
        },
      }),
  } as unknown as DataSource;
  const onSucceeded = async (sql: Sql, item: WorkItem): Promise<void> => {
    if (item.id === items.failPublishOf) throw new Error(`publishing ${item.id} broke`);
    await sql.execute(`publish ${item.id}`);
  };
  const batcher = new SuccessBatcher<unknown>({ dataSource, repository: new WorkQueueRepository('test'), onSucceeded });
  return { batcher, transactions };
}

const item = (id: string): { item: WorkItem; lease: Lease } => ({
  item: { id, jobId: `job-${id}` } as WorkItem,
  lease: { itemId: id, owner: 'w1', token: `token-${id}` },
});

function record(batcher: SuccessBatcher<unknown>, id: string) {
  const { item: it, lease } = item(id);
  return batcher.record(it, lease, { ok: true });
}

describe('SuccessBatcher', () => {
  it('records the successes of one turn in ONE transaction: one statement marks them, then each is published', async () => {
    const { batcher, transactions } = database({ held: new Set(['a', 'b']), status: {} });
    expect(await Promise.all([record(batcher, 'a'), record(batcher, 'b')])).toEqual(['succeeded', 'succeeded']);
    expect(transactions).toEqual([{ statements: ['finish a,b', 'publish a', 'publish b'], outcome: 'commit' }]);
  });

  it('publishes nothing for an item whose lease no longer held, and says why from its row', async () => {
    const { batcher, transactions } = database({ held: new Set(['a']), status: { b: 'cancelled', c: 'running' } });
    expect(await Promise.all([record(batcher, 'a'), record(batcher, 'b'), record(batcher, 'c')])).toEqual(['succeeded', 'cancelled', 'lost']);
    expect(transactions).toEqual([{ statements: ['finish a,b,c', 'publish a', 'status b', 'status c'], outcome: 'commit' }]);
  });

  it('tries each item on its own when the batch failed, so one broken item does not hold back the rest', async () => {
    const { batcher, transactions } = database({ held: new Set(['a', 'b']), status: {}, failPublishOf: 'b' });
    const outcomes = await Promise.allSettled([record(batcher, 'a'), record(batcher, 'b')]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'succeeded' });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: new Error('publishing b broke') });
    expect(transactions[0]!.outcome).toBe('rollback');
    expect(transactions.slice(1).filter((t) => t.outcome === 'commit').map((t) => t.statements)).toEqual([['finish a', 'publish a']]);
  });

  it('records successes of different turns in transactions of their own', async () => {
    const { batcher, transactions } = database({ held: new Set(['a', 'b']), status: {} });
    await record(batcher, 'a');
    await record(batcher, 'b');
    expect(transactions.map((t) => t.statements)).toEqual([['finish a', 'publish a'], ['finish b', 'publish b']]);
  });
});
