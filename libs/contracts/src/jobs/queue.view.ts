import type { Lane } from './job-status';

/** One lane as `GET /v1/queues` shows it. */
export interface LaneQueueView {
  lane: Lane;
  /** Step attempts requested and not yet started (waiting for the relay or in a worker's queue). */
  depth: number;
  running: number;
  /** Messages of the lane's topics not yet consumed by its worker group (null when Kafka did not answer). */
  lag: number | null;
  /** Age of the oldest waiting attempt, in ms (0 when none waits). */
  oldestWaitingMs: number;
  /** Steps of the lane finished in the last minute, per second. */
  throughputPerSecond: number;
  /** The admission limits for the lane. */
  limits: { maxDepth: number; maxLag: number };
  /** Whether new jobs for the lane are refused with `429` right now. */
  admitting: boolean;
}

/** `GET /v1/queues`. */
export interface QueuesView {
  lanes: LaneQueueView[];
  /** When the figures were sampled. */
  sampledAt: string;
}
