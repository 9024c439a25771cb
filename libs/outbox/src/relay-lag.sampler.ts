import { inTransaction, type DataSource } from '@longhaul/persistence';
import type { OutboxMetrics } from './outbox.metrics';
import { readRelayLag } from './relay-lag.repository';

/** Longest a sampling statement may run in the database. */
const SAMPLE_STATEMENT_TIMEOUT_MS = 2_000;

/**
 * Sets the relay-lag gauges from {@link readRelayLag}, meant to run in a `MetricSampler` pass.
 * While the slot is missing the gauges are dropped rather than zeroed: nothing is being relayed,
 * and 0 would say the opposite.
 */
export class RelayLagSampler {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly slot: string,
    private readonly metrics: OutboxMetrics,
  ) {}

  async sample(): Promise<void> {
    const lag = await inTransaction(this.dataSource, async (sql) => {
      // The database gives up too, so a pass abandoned by its sampler does not hold a connection.
      await sql.execute(`SET LOCAL statement_timeout = ${SAMPLE_STATEMENT_TIMEOUT_MS}`);
      return readRelayLag(sql, this.schema, this.slot);
    });
    if (!lag) return this.clear();
    this.metrics.relayLag.set({ schema: this.schema }, lag.oldestUnrelayedSeconds);
    this.metrics.slotRetained.set({ slot: this.slot }, lag.slotRetainedBytes);
  }

  /** Drops both gauges: an unreadable figure is unknown, not the last one seen. */
  clear(): void {
    this.metrics.relayLag.reset();
    this.metrics.slotRetained.reset();
  }
}
