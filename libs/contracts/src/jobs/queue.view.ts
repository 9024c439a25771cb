import type { Lane } from './job-status';

/** One lane as `GET /v1/queues` shows it. */
export interface LaneQueueView {
  lane: Lane;
  /** Steps `queued` and not yet started: waiting for the relay, in a worker's queue, or a retry waiting for its due time. */
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

/** A dead-letter topic and how many messages it holds. */
export interface DeadLetterTopicView {
  topic: string;
  /** Messages kept in the topic (all partitions), i.e. messages that could not be handled. */
  messages: number;
}

/** `GET /v1/queues`. */
export interface QueuesView {
  lanes: LaneQueueView[];
  /** Every `<topic>.dlq` of a consumed topic; null when Kafka did not answer. */
  deadLetterTopics: DeadLetterTopicView[] | null;
  /** When the figures were sampled. */
  sampledAt: string;
}
