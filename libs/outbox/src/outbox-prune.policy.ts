/**
 * When an outbox row may be deleted. Pure: the figures come from `outbox-prune.repository.ts`.
 *
 * A row may go once the relay has confirmed its transaction's commit, not just its insert: the
 * row's `wal_lsn` (its insert) can lie behind a confirmed position while its own commit is still
 * ahead of it (see `readRelayLag`). No column records a commit's position, so the pruner takes
 * observations instead: a transaction id horizon (every transaction below it had ended when the
 * snapshot was taken) together with the WAL insert position read after that snapshot. Every
 * commit below the horizon was written before that position, so once the slot's
 * `confirmed_flush_lsn` reaches the position, every row whose transaction is below the horizon has
 * been relayed. A transaction still open at the observation, however old, stays above it.
 */

/** One observation: a transaction id horizon and a WAL position read after it. */
export interface RelayObservation {
  /** WAL insert position, in bytes from `0/0`, read after the snapshot the horizon comes from. */
  walLsn: bigint;
  /** `pg_snapshot_xmin` of that snapshot (a 64-bit transaction id). */
  xidHorizon: bigint;
}

/** The relay's replication slot as `pg_replication_slots` shows it; null when there is none. */
export interface RelaySlot {
  active: boolean;
  /** `confirmed_flush_lsn` in bytes from `0/0`; null until the relay has confirmed anything. */
  confirmedLsn: bigint | null;
}

/**
 * What a pruner carries from one pass to the next: the newest observation the relay has
 * confirmed (rows below its horizon are relayed) and the one waiting to be confirmed.
 */
export interface RelayWatermark {
  confirmed: RelayObservation | null;
  pending: RelayObservation | null;
}

export const NO_RELAY_WATERMARK: RelayWatermark = { confirmed: null, pending: null };

/** Why no outbox row can be deleted now, or null when the slot can vouch for relayed rows. */
export type RelaySlotProblem = 'slot_missing' | 'slot_inactive' | 'slot_unconfirmed';

/**
 * Null when `slot` can be trusted to say what was relayed. A missing slot relays nothing; an
 * inactive one has no relay reading it right now, and is treated as unknown rather than trusted.
 */
export function relaySlotProblem(slot: RelaySlot | null): RelaySlotProblem | null {
  if (!slot) return 'slot_missing';
  if (!slot.active) return 'slot_inactive';
  if (slot.confirmedLsn === null) return 'slot_unconfirmed';
  return null;
}

/**
 * The watermark after a pass that found the slot confirmed up to `confirmedLsn` (null: the slot
 * cannot vouch for anything, see {@link relaySlotProblem}) and took `observation`. The pending observation
 * becomes the confirmed one once the slot's confirmed position reaches it, and the new
 * observation waits in its place. Until then the pending one is kept, not replaced: under
 * steady traffic a newer position would always be just out of reach. So rows become deletable
 * about one pass after the relay has passed them.
 */
export function advanceRelayWatermark(watermark: RelayWatermark, confirmedLsn: bigint | null, observation: RelayObservation): RelayWatermark {
  const { pending } = watermark;
  if (pending && confirmedLsn !== null && confirmedLsn >= pending.walLsn) return { confirmed: pending, pending: observation };
  return { confirmed: watermark.confirmed, pending: pending ?? observation };
}
