import type { Lane } from '@longhaul/contracts';

/**
 * Where a work item stands. `queued` and `running` are open; `succeeded` and `failed` carry the
 * step's outcome; `demoted` means a fast-lane run passed its budget and the step moves to the
 * slow lane under a new attempt; `cancelled` means the job was cancelled (set by the control
 * consumer, never by a runner).
 */
export type WorkItemStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'demoted' | 'cancelled';

/** A claimable unit of work as stored in `<schema>.work_items`. */
export interface WorkItem<P = Record<string, unknown>> {
  id: string;
  dedupeKey: string;
  kind: string;
  jobId: string;
  /** The lane whose runner may claim the item: a slow item never takes a fast slot. */
  lane: Lane;
  payload: P;
  traceparent: string | null;
  status: WorkItemStatus;
  /** How many times the item has been claimed (a takeover after a lost lease adds one). */
  claims: number;
  leaseOwner: string | null;
  leaseToken: string | null;
  deadlineMs: number;
}

/** What {@link WorkQueueRepository.enqueue} needs. */
export interface NewWorkItem<P = Record<string, unknown>> {
  dedupeKey: string;
  kind: string;
  jobId: string;
  /** The lane of the consumer that received the request. */
  lane: Lane;
  payload: P;
  traceparent: string | null;
  /** Longest time one run may take before it is aborted. */
  deadlineMs: number;
  /**
   * The caller announces the queued item in the inserting transaction (`StepQueued`), so no
   * later pass announces it again. Ignored for an item inserted already claimed.
   */
  announced?: boolean;
}

/** The proof of a claim: only its holder may heartbeat or finish the item. */
export interface Lease {
  itemId: string;
  owner: string;
  token: string;
}

/**
 * A claim made while the item is inserted: the lease a runner's reserved slot will run it under
 * (`WorkQueueRunner.reserveSlot`).
 */
export interface PreClaim {
  owner: string;
  /** A fresh lease token. */
  token: string;
  leaseMs: number;
}
