import { withPgClient } from '@longhaul/persistence/testing';
import type { DataSource } from '@longhaul/persistence';
import { OutboxPruner } from './outbox.pruner';

interface SlotRow {
  slot_name: string | null;
  active: boolean | null;
  confirmed: string | null;
}

/**
 * A data source that answers the relay observation with `slots` in turn (and an insert position
 * one step further each time) and each delete with the next of `deletes`, recording statements.
 */
function fakeDatabase(slots: SlotRow[], deletes: number[], seen: Array<{ text: string; params: unknown[] }>): DataSource {
  let position = 0;
  const runner = {
    connect: async () => undefined,
    release: async () => undefined,
    query: async (text: string, params: unknown[] = []) => {
      seen.push({ text, params });
      if (text.includes('pg_replication_slots')) {
        position += 100;
        return { records: [{ wal_lsn: String(position), xid_horizon: String(1_000 + position), ...slots.shift()! }] };
      }
      return { records: [], affected: deletes.shift() ?? 0 };
    },
  };
  return { createQueryRunner: () => withPgClient(runner) } as unknown as DataSource;
}

const active = (confirmed: number): SlotRow => ({ slot_name: 'longhaul_outbox', active: true, confirmed: String(confirmed) });
const options = { schema: 'api', slot: 'longhaul_outbox', retentionMs: 3_600_000, batchSize: 2 };
const deletesOf = (seen: Array<{ text: string; params: unknown[] }>) => seen.filter((s) => s.text.includes('DELETE'));

describe('OutboxPruner', () => {
  it('deletes nothing and says why while the slot is missing or inactive', async () => {
    const seen: Array<{ text: string; params: unknown[] }> = [];
    const missing = { slot_name: null, active: null, confirmed: null };
    const pruner = new OutboxPruner(fakeDatabase([missing, { ...active(10_000), active: false }], [], seen), options);
    expect(await pruner.prune()).toEqual({ deleted: 0, held: 'slot_missing' });
    expect(await pruner.prune()).toEqual({ deleted: 0, held: 'slot_inactive' });
    expect(deletesOf(seen)).toHaveLength(0);
  });

  it('deletes from the pass after the relay confirmed an observation, below that observation’s horizon, in batches', async () => {
    const seen: Array<{ text: string; params: unknown[] }> = [];
    // Pass 1 observes position 100; pass 2 finds the slot past it and deletes 2 + 2 + 1 rows.
    const pruner = new OutboxPruner(fakeDatabase([active(50), active(150)], [2, 2, 1], seen), options);
    expect(await pruner.prune()).toEqual({ deleted: 0, held: null });
    expect(deletesOf(seen)).toHaveLength(0);
    expect(await pruner.prune()).toEqual({ deleted: 5, held: null });
    const deletes = deletesOf(seen);
    expect(deletes).toHaveLength(3);
    expect(deletes[0]!.params).toEqual([3_600_000, '1100', 2]);
    expect(deletes[0]!.text).toContain('"api".outbox');
  });

  it('keeps waiting while the relay has not reached the first observation', async () => {
    const seen: Array<{ text: string; params: unknown[] }> = [];
    const pruner = new OutboxPruner(fakeDatabase([active(50), active(99), active(99)], [5], seen), options);
    for (let pass = 0; pass < 3; pass += 1) expect(await pruner.prune()).toEqual({ deleted: 0, held: null });
    expect(deletesOf(seen)).toHaveLength(0);
  });
});
