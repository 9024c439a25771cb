/**
 * Every Kafka topic Longhaul uses. Producers name a topic on the outbox row (the `topic`
 * column) and Debezium's EventRouter routes the row there; consumers subscribe by these names.
 * Every topic is keyed by job id, so one job's events share a partition and stay in order.
 */
export const Topics = {
  /** Transcode requests for short jobs. A topic per lane lets each lane get its own consumers. */
  transcodeRequestsFast: 'transcode.requests.fast',
  /** Transcode requests for long jobs. */
  transcodeRequestsSlow: 'transcode.requests.slow',
  /** Thumbnail requests, issued by the saga once transcoding has succeeded. */
  thumbnailRequests: 'thumbnail.requests',
  /**
   * What workers report about step attempts (`StepQueued`, `StepStarted`, `StepProgress`,
   * `StepCompleted`, `StepFailed`, `StepDemoted`), read by the saga.
   */
  jobEvents: 'job.events',
  /**
   * A job's end and reopening (`JobCompleted`, `JobFailed`, `JobCancelled`, `JobReopened`), its
   * start (`JobStarted`) where the api runs with `LIFECYCLE_START_EVENTS=true`, and its steps'
   * transitions (`StepTransitioned`) where it runs with `LIFECYCLE_STEP_EVENTS=true`; read by
   * the notifier. Each names the job's event before it
   * (`previousVersion`). The terminal ones carry `notify`, who hears about the job's end.
   */
  jobLifecycle: 'job.lifecycle',
  /** Commands from the api to workers about a whole job (`CancelJob`). */
  jobControl: 'job.control',
  /** The notifier's delivery records (`DeliveryUpdated`), read by the api for a job's delivery log. */
  jobDeliveries: 'job.deliveries',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

const DEAD_LETTER_SUFFIX = '.dlq';

/** What Kafka takes as a topic name: what a filter by topic may hold. */
export const TOPIC_NAME_PATTERN = /^[A-Za-z0-9._-]{1,249}$/;

/** The dead-letter topic for messages of `topic` that cannot be parsed or fail their schema. */
export function deadLetterTopic(topic: string): string {
  return `${topic}${DEAD_LETTER_SUFFIX}`;
}

/** The topic whose messages `dlqTopic` holds: `job.events` for `job.events.dlq`. */
export function sourceTopicOf(dlqTopic: string): string {
  return dlqTopic.endsWith(DEAD_LETTER_SUFFIX) ? dlqTopic.slice(0, -DEAD_LETTER_SUFFIX.length) : dlqTopic;
}

/** Every dead-letter topic a Longhaul consumer can write: one beside each topic. */
export const DEAD_LETTER_TOPICS: readonly string[] = Object.values(Topics).map(deadLetterTopic);

/**
 * Partitions per topic. Six lets up to six consumers of one group share a topic; the
 * broker's `num.partitions` uses the same number for topics it creates on first write.
 * @defaultValue 6
 */
export const DEFAULT_PARTITIONS = 6;

/**
 * `retention.ms` of the topics Longhaul creates: how long Kafka keeps a message once it has been
 * written. It matches the broker's `log.retention.hours` in `infra/kafka/server.properties`, so a
 * topic the broker created on first write keeps messages as long. @defaultValue 86400000 (1 day)
 */
export const TOPIC_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * `segment.ms` of the topics Longhaul creates. Kafka deletes whole segments, and only once the
 * newest message of a segment is past the retention, so a message can outlive `retention.ms` by
 * the age a segment reaches before it is closed. Closing segments hourly keeps that excess small
 * (the broker's default is 7 days). @defaultValue 3600000 (1 hour)
 */
export const TOPIC_SEGMENT_MS = 60 * 60 * 1000;

/**
 * The longest a message of a topic Longhaul created may stay readable, and so be delivered again
 * (a consumer group that starts over from the beginning): the retention plus one segment's age.
 * An inbox row must be kept at least this long.
 */
export const TOPIC_MESSAGE_LIFETIME_MS = TOPIC_RETENTION_MS + TOPIC_SEGMENT_MS;
