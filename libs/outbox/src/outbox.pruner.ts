import { deleteInBatches, withConnection, type DataSource } from '@longhaul/persistence';
import { advanceRelayWatermark, NO_RELAY_WATERMARK, relaySlotProblem, type RelaySlotProblem, type RelayWatermark } from './outbox-prune.policy';
import { deleteRelayedOutboxRows, observeRelay } from './outbox-prune.repository';

/** Options of {@link OutboxPruner}. */
export interface OutboxPrunerOptions {
  /** The service's schema, whose `outbox` is pruned. */
  schema: string;
  /** The relay's replication slot (`OutboxRelay.slot`). */
  slot: string;
  /** Age past which a relayed row is deleted, in milliseconds. */
  retentionMs: number;
  /** Rows deleted per statement. */
  batchSize: number;
  /**
   * Awaited after each full batch with the time it took, so a backlog is worked off at a bounded
   * share of the database (`restingFor`). @defaultValue no rest
   */
  rest?: (batchMs: number) => Promise<void>;
}

/** What one {@link OutboxPruner.prune} pass did. */
export interface OutboxPruneResult {
  deleted: number;
  /** Why nothing could be deleted this pass, when the slot could not vouch for any row. */
  held: RelaySlotProblem | null;
}

/**
 * Deletes this service's outbox rows once they are older than the retention and the relay has
 * confirmed their commit ({@link advanceRelayWatermark}). Each pass observes the slot once, then
 * deletes in batches until one comes back short. The watermark lives in memory: a new process
 * starts without one and deletes from its second pass on, once the relay has confirmed its
 * first observation.
 */
export class OutboxPruner {
  private watermark: RelayWatermark = NO_RELAY_WATERMARK;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: OutboxPrunerOptions,
  ) {}

  async prune(shouldStop: () => boolean = () => false): Promise<OutboxPruneResult> {
    const { slot, observation } = await withConnection(this.dataSource, (sql) => observeRelay(sql, this.options.slot));
    const held = relaySlotProblem(slot);
    if (held || !slot) return { deleted: 0, held: held ?? 'slot_missing' };
    this.watermark = advanceRelayWatermark(this.watermark, slot.confirmedLsn, observation);
    const horizon = this.watermark.confirmed?.xidHorizon;
    if (horizon === undefined) return { deleted: 0, held: null };
    const { deleted } = await deleteInBatches(
      (limit) => withConnection(this.dataSource, (sql) => deleteRelayedOutboxRows(sql, this.options.schema, this.options.retentionMs, horizon, limit)),
      this.options.batchSize,
      shouldStop,
      this.options.rest,
    );
    return { deleted, held: null };
  }
}
