/** A claimable unit of work as stored in `<schema>.work_items`. */
export interface WorkItem<P = Record<string, unknown>> {
  id: string;
  dedupeKey: string;
  kind: string;
  jobId: string;
  payload: P;
  traceparent: string | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
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
  payload: P;
  traceparent: string | null;
  /** Longest time one run may take before it is aborted. */
  deadlineMs: number;
}

/** The proof of a claim: only its holder may heartbeat or finish the item. */
export interface Lease {
  itemId: string;
  owner: string;
  token: string;
}
