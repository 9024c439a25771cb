import type { Lane } from './job-status';

/** Most tenants a lane of `GET /v1/queues` lists (its deepest), so the view stays small whatever the number of tenants. */
export const QUEUE_VIEW_MAX_TENANTS = 20;

/** One tenant's depth in a lane. */
export interface TenantQueueView {
  tenantId: string;
  /** The tenant's open steps in the lane: `queued` or `running` (unlike the lane's `depth`, running ones count). */
  depth: number;
}

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
  /** The admission limits for the lane; `maxDepthPerTenant` applies to each tenant's `depth`. */
  limits: { maxDepth: number; maxLag: number; maxDepthPerTenant: number };
  /** Whether new jobs for the lane are refused with `429` right now (by the lane's own limits; a tenant may be refused alone). */
  admitting: boolean;
  /** The deepest tenants of the lane, deepest first, at most {@link QUEUE_VIEW_MAX_TENANTS}; a tenant with no open step is absent. */
  tenants: TenantQueueView[];
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
