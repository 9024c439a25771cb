import { QUEUE_VIEW_MAX_TENANTS, type DeadLetterTopicView, type Lane } from '@longhaul/contracts';

/**
 * Most tenants `GET /v1/queues` and the per-tenant gauge show per lane (the view's own bound), so
 * both stay small whatever the number of tenants.
 */
export const MAX_TENANTS_SHOWN = QUEUE_VIEW_MAX_TENANTS;

/** What the step table says about one lane. */
export interface LaneStepFigures {
  /** Steps `queued`: waiting for the relay, in a worker's queue, or a retry waiting for its due time. */
  depth: number;
  running: number;
  /** Age of the oldest queued attempt whose due time has come, in ms (0 when none waits). */
  oldestWaitingMs: number;
  /** Steps of the lane finished in the last minute, per second. */
  throughputPerSecond: number;
  /**
   * Open steps (`queued` or `running`) of the lane per tenant id: a tenant's depth. Tenants with
   * none are absent (their depth is 0). Unlike the lane's `depth`, running steps count: they hold
   * the worker slots the other tenants wait for.
   */
  tenantDepths: ReadonlyMap<string, number>;
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

/** One tenant's depth in a lane. */
export interface TenantDepth {
  tenantId: string;
  depth: number;
}

/** The `limit` deepest tenants, deepest first (ties by tenant id, so the order is stable). */
export function topTenants(depths: ReadonlyMap<string, number>, limit = MAX_TENANTS_SHOWN): TenantDepth[] {
  return [...depths]
    .map(([tenantId, depth]) => ({ tenantId, depth }))
    .sort((a, b) => b.depth - a.depth || (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : 0))
    .slice(0, limit);
}
