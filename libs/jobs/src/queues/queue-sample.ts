import type { DeadLetterTopicView, Lane } from '@longhaul/contracts';

/** What the step table says about one lane. */
export interface LaneStepFigures {
  /** Steps `queued`: waiting for the relay, in a worker's queue, or a retry waiting for its due time. */
  depth: number;
  running: number;
  /** Age of the oldest queued attempt whose due time has come, in ms (0 when none waits). */
  oldestWaitingMs: number;
  /** Steps of the lane finished in the last minute, per second. */
  throughputPerSecond: number;
}

/** One lane's figures at the last sample. */
export interface LaneSample extends LaneStepFigures {
  lane: Lane;
  /** Messages of the lane's topics its consumer groups have not consumed; null when Kafka did not answer. */
  lag: number | null;
}

/** The latest figures of every lane. */
export interface QueueSample {
  /** When the step table was read. */
  sampledAt: Date;
  lanes: Record<Lane, LaneSample>;
  /** Messages in each dead-letter topic, read with the lag; null while Kafka has not answered. */
  deadLetterTopics: DeadLetterTopicView[] | null;
}
