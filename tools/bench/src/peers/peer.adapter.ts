import type { CpuGroup } from '../throughput/process-cpu.meter';

// What the peer benchmarks ask of a job queue library: start, put a job on a stage's queue, run a
// handler for a stage, stop. Each library gets one adapter (`<library>.peer.ts`) that maps these
// four calls onto its own documented API and nothing more, so that what is measured is the
// library, configured as its documentation recommends.

/** A queue of the benchmark: the enqueue benchmark uses `stage-1`; the chain runs 1 → 2 → 3. */
export type PeerStage = 'stage-1' | 'stage-2' | 'stage-3';

/** The chain's stages in order. */
export const CHAIN_STAGES: readonly PeerStage[] = ['stage-1', 'stage-2', 'stage-3'];

/** A job's data: which phase of the run it belongs to, and its number within the phase. */
export interface PeerPayload {
  phase: number;
  n: number;
}

/** What a worker does with one job; the library counts the job done when it resolves. */
export type PeerHandler = (payload: PeerPayload) => Promise<void>;

/**
 * Jobs each stage's worker runs at once. Longhaul's throughput runs give each step service its
 * default of two step slots per lane (the notifier: 16 deliveries); each peer gets one worker per
 * stage with 16 jobs in flight, more than Longhaul's steps, so the comparison errs in the peers'
 * favour rather than starving them.
 */
export const PEER_STAGE_CONCURRENCY = 16;

/**
 * Enqueues the benchmarks keep in flight (the brief's "32 in flight"). The Postgres peers get a
 * pool at least this large so that 32 in flight are 32 concurrent statements, not a queue in
 * front of a smaller pool.
 */
export const PEER_ENQUEUE_IN_FLIGHT = 32;

/**
 * The saturation batch: the chains each peer runs through its three stages, and the jobs Longhaul
 * runs end to end, so the two rates set side by side come from the same amount of work. Each is
 * the batch over the time from its first enqueue to its last end, ramp-up and drain included, so
 * a smaller batch on one side alone would weigh that side's fill and drain more.
 */
export const SATURATION_BATCH = 2_000;

/** One library under test, in one configuration. */
export interface PeerAdapter {
  /** As the report names it, e.g. `pg-boss` or `BullMQ (AOF, fsync always)`. */
  readonly name: string;
  /** The settings this adapter uses and why, one Markdown sentence each, for the report's method. */
  readonly settings: readonly string[];
  /** Errors the library reported on its own channel (an `error` event, its logger), oldest first. */
  readonly errors: readonly string[];
  /** Brings up what the library needs (its schema, or its redis-server) from a clean state. */
  start(): Promise<void>;
  /** Puts one job on a stage's queue; resolves once the library has accepted it. */
  enqueue(stage: PeerStage, payload: PeerPayload): Promise<void>;
  /** Starts a worker for a stage. Call after `start()`, once per stage. */
  work(stage: PeerStage, handler: PeerHandler): Promise<void>;
  /** Stops the workers and removes everything `start()` made (schema dropped, redis-server stopped). */
  stop(): Promise<void>;
  /**
   * Processes of the peer's own besides the benchmark's (its redis-server), so the CPU a chain
   * costs counts them; absent for a peer on the stack's Postgres, which is measured anyway.
   */
  processes?(): CpuGroup[];
}

/**
 * Thrown by `start()` when the library cannot run on this machine at all (a missing optional
 * dependency, a missing binary): the benchmark reports the peer as not measured and goes on.
 */
export class PeerUnavailableError extends Error {
  readonly code = 'peer_unavailable';
  override readonly name = 'PeerUnavailableError';
}
