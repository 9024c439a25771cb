import { z } from 'zod';
import { TOPIC_MESSAGE_LIFETIME_MS, TOPIC_RETENTION_MS } from '@longhaul/contracts';

/** One day, the margin the default inbox retention keeps beyond the topics' retention. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** @defaultValue 3600000 (1 hour) */
export const DEFAULT_OUTBOX_RETENTION_MS = 60 * 60 * 1000;
/** The topics' retention plus a day: 172800000 (2 days). */
export const DEFAULT_INBOX_RETENTION_MS = TOPIC_RETENTION_MS + DAY_MS;
/** Seven days: 604800000. */
export const DEFAULT_JOB_RETENTION_MS = 7 * DAY_MS;
/**
 * The api's revoked and expired API keys, counted from when each stopped working: 7776000000
 * (90 days), long enough to answer "whose key was that?" about a quarter's logs.
 */
export const DEFAULT_API_KEY_RETENTION_MS = 90 * DAY_MS;
/** @defaultValue 60000 */
export const DEFAULT_RETENTION_INTERVAL_MS = 60_000;
/** @defaultValue 5000 */
export const DEFAULT_RETENTION_BATCH_SIZE = 5_000;

/**
 * The retention loop every service runs on its own `outbox`, `inbox` and finished records (part
 * of `CommonEnvSchema`). Durations in milliseconds.
 */
export const retentionEnvShape = {
  /**
   * Age past which a relayed outbox row is deleted; a row the relay has not confirmed is kept
   * whatever its age. @defaultValue 3600000 (1 hour)
   */
  OUTBOX_RETENTION_MS: z.coerce.number().int().min(60_000).default(DEFAULT_OUTBOX_RETENTION_MS),
  /**
   * Age past which an inbox row is deleted. It must cover the longest a message may stay in a
   * topic (retention plus one segment), or a message delivered again after its row was deleted
   * would be applied twice. @defaultValue 172800000 (the topics' 1 day retention plus 1 day)
   */
  INBOX_RETENTION_MS: z.coerce
    .number()
    .int()
    .min(
      TOPIC_MESSAGE_LIFETIME_MS,
      `must be at least ${TOPIC_MESSAGE_LIFETIME_MS} (the Kafka topics' retention.ms plus segment.ms): a message still in a topic must keep its inbox row`,
    )
    .default(DEFAULT_INBOX_RETENTION_MS),
  /**
   * How long a finished job is kept after it finished, and with it what each service recorded
   * for it: the api's job, steps, attempts, event feed and deliveries, and the job's output and
   * fetched-source blobs; a worker's work items; the notifier's received events and finished
   * deliveries; the api's record of a dead-lettered message, counted from its replay. `0` keeps
   * everything for ever. Not shorter than a message may stay in a topic:
   * those records also turn away a request met twice. A job with a dead letter still waiting, or
   * with an idempotency key still live, is kept until neither holds.
   * @defaultValue 604800000 (7 days)
   */
  JOB_RETENTION_MS: z.coerce
    .number()
    .int()
    .refine(
      (ms) => ms === 0 || ms >= TOPIC_MESSAGE_LIFETIME_MS,
      `must be 0 (keep for ever) or at least ${TOPIC_MESSAGE_LIFETIME_MS} (the Kafka topics' retention.ms plus segment.ms)`,
    )
    .default(DEFAULT_JOB_RETENTION_MS),
  /** Time between two retention passes. @defaultValue 60000 */
  RETENTION_INTERVAL_MS: z.coerce.number().int().min(100).default(DEFAULT_RETENTION_INTERVAL_MS),
  /** Rows deleted per statement, so no pass holds locks long. @defaultValue 5000 */
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_RETENTION_BATCH_SIZE),
};
