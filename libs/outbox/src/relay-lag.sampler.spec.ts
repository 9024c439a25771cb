import { withPgClient } from '@longhaul/persistence/testing';
import { Registry } from 'prom-client';
import type { DataSource } from '@longhaul/persistence';
import { outboxMetrics } from './outbox.metrics';
import { RelayLagSampler } from './relay-lag.sampler';

/** A data source whose every query answers `rows`, recording the statements. */
function answering(rows: Array<Record<string, unknown>>, seen: Array<{ text: string; params: unknown[] }> = []): DataSource {
  const runner = {
    connect: async () => undefined,
    startTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    isTransactionActive: false,
    release: async () => undefined,
    query: async (text: string, params: unknown[]) => {
      seen.push({ text, params });
      return { records: text.startsWith('SET LOCAL') ? [] : rows };
    },
  };
  return { createQueryRunner: () => withPgClient(runner) } as unknown as DataSource;
}

describe('RelayLagSampler', () => {
  it("sets the service's relay lag and the slot's retained bytes", async () => {
    const registry = new Registry();
    const seen: Array<{ text: string; params: unknown[] }> = [];
    await new RelayLagSampler(answering([{ retained_bytes: '1048576', oldest_seconds: 2.5 }], seen), 'api', 'longhaul_outbox', outboxMetrics(registry)).sample();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_outbox_relay_lag_seconds{schema="api"} 2.5');
    expect(text).toContain('longhaul_replication_slot_retained_bytes{slot="longhaul_outbox"} 1048576');
    expect(seen[0]!.text).toBe('SET LOCAL statement_timeout = 2000');
    expect(seen[1]!.text).toContain('FROM "api".outbox');
    expect(seen[1]!.text).toContain('ORDER BY o.wal_lsn');
    expect(seen[1]!.params).toEqual(['longhaul_outbox']);
  });

  it('drops both gauges while the slot is missing', async () => {
    const registry = new Registry();
    const metrics = outboxMetrics(registry);
    await new RelayLagSampler(answering([{ retained_bytes: 10, oldest_seconds: 0 }]), 'api', 'longhaul_outbox', metrics).sample();
    await new RelayLagSampler(answering([]), 'api', 'longhaul_outbox', metrics).sample();
    const text = await registry.metrics();
    expect(text).not.toContain('longhaul_outbox_relay_lag_seconds{');
    expect(text).not.toContain('longhaul_replication_slot_retained_bytes{');
  });
});
