import type { Lane } from '@longhaul/contracts';

/** Options of `QueuesModule.forRoot`: admission limits and how often the queues are sampled. */
export interface QueuesModuleOptions {
  /**
   * Most step attempts that may wait (`queued`) in a lane; once a lane holds this many, submits
   * to it are refused with `429`. The api reads them from `ADMISSION_MAX_DEPTH_FAST` and
   * `ADMISSION_MAX_DEPTH_SLOW`.
   * @defaultValue `{ fast: 10000, slow: 2000 }` (the api's config defaults)
   */
  maxDepth: Record<Lane, number>;
  /**
   * Most open steps (queued or running) one tenant may have in a lane; once a tenant holds this
   * many, its submits to the lane are refused with `429` (`scope: 'tenant'`) while other tenants'
   * are still taken. The api reads them from `ADMISSION_MAX_DEPTH_PER_TENANT_FAST` and
   * `ADMISSION_MAX_DEPTH_PER_TENANT_SLOW`. The defaults are half the lane limits, so two tenants
   * can always both be served: one tenant alone never fills a lane (it stops at half), and two
   * can each reach their own limit before the lane's shuts everyone out.
   * @defaultValue `{ fast: 5000, slow: 1000 }` (the api's config defaults)
   */
  maxDepthPerTenant: Record<Lane, number>;
  /**
   * Most messages a lane's consumer groups may have left unconsumed; at or over it, submits to
   * the lane are refused. Ignored while Kafka does not answer (the lane is judged by depth).
   * @defaultValue 20000 (`ADMISSION_MAX_LAG`)
   */
  maxLag: number;
  /** How often the step table is sampled, in ms. @defaultValue 1000 (`QUEUE_SAMPLE_MS`) */
  sampleMs: number;
  /**
   * How often consumer lag is sampled, in ms. Lag costs several broker round trips, so it may
   * lag the database figures; it is never sampled more often than `sampleMs`.
   * @defaultValue {@link DEFAULT_LAG_SAMPLE_MS}
   */
  lagSampleMs?: number;
  /**
   * Longest one lag sample (connect included) may take; past it the lag is reported as unknown
   * (null) so a slow or absent broker never holds anything up.
   * @defaultValue {@link DEFAULT_KAFKA_TIMEOUT_MS}
   */
  kafkaTimeoutMs?: number;
}

/** @see QueuesModuleOptions.lagSampleMs */
export const DEFAULT_LAG_SAMPLE_MS = 2_000;

/** @see QueuesModuleOptions.kafkaTimeoutMs */
export const DEFAULT_KAFKA_TIMEOUT_MS = 1_500;
