/**
 * Metric names, in one list so dashboards (`infra/grafana`), alert rules (`infra/prometheus`)
 * and queries can rely on them. Never rename one; add a new one. Every name starts with
 * `longhaul_`; labels stay few and bounded (a lane, a step, a topic, a code — never a job id).
 * Every series also carries `service` (`api`, `transcoder`, …), set once per registry.
 */
export const MetricNames = {
  /** Counter `{type, lane}`: jobs accepted by `POST /v1/jobs` (idempotent replays not counted). */
  jobsAccepted: 'longhaul_jobs_accepted_total',
  /** Counter `{type, lane, status}`: jobs moved to `completed`, `failed` or `cancelled`. */
  jobsFinished: 'longhaul_jobs_finished_total',
  /** Counter `{step, code}`: step series whose attempts ran out, dead-lettered by the saga. */
  stepsDeadLettered: 'longhaul_steps_dead_lettered_total',
  /** Counter `{lane, scope}`: submits refused with `429` by admission control (`scope`: the lane's limit or the tenant's). */
  admissionRejections: 'longhaul_admission_rejections_total',
  /** Gauge `{tenant, lane}`: open steps of the 20 deepest tenants of each lane (reset every sample, so bounded). */
  tenantQueueDepth: 'longhaul_tenant_queue_depth',
  /** Counter `{tenant}`: API requests refused with `429` by a key's rate limit (tenants are few, so the label stays bounded). */
  rateLimitedRequests: 'longhaul_rate_limited_requests_total',
  /** Histogram `{step, lane, outcome}`: how long a worker ran one work item, claim to finish. */
  stepDuration: 'longhaul_step_duration_seconds',
  /** Gauge `{lane}`: work items `queued` in this worker's schema. */
  workQueueDepth: 'longhaul_work_queue_depth',
  /** Gauge `{lane}`: work items `running` in this worker's schema. */
  workQueueRunning: 'longhaul_work_queue_running',
  /** Gauge `{lane}`: age of the oldest `queued` work item, 0 when none waits. */
  workQueueOldestAge: 'longhaul_work_queue_oldest_age_seconds',
  /** Gauge `{group, topic, partition}`: messages of a partition the group has not consumed. */
  consumerLag: 'longhaul_consumer_lag_messages',
  /** Counter `{topic, code}`: messages a consumer copied to a `<topic>.dlq` (`topic` is the `.dlq` one). */
  dlqMessages: 'longhaul_dlq_messages_total',
  /** Gauge `{schema}`: age of this service's oldest outbox row the relay has not confirmed, 0 when none. */
  outboxRelayLag: 'longhaul_outbox_relay_lag_seconds',
  /** Gauge `{slot}`: WAL bytes the relay's replication slot keeps Postgres from recycling. */
  replicationSlotRetained: 'longhaul_replication_slot_retained_bytes',
  /** Counter `{table}`: rows the retention loop deleted from this service's `outbox` or `inbox`. */
  retentionPrunedRows: 'longhaul_retention_pruned_rows_total',
  /** Counter `{channel, outcome}`: webhook and email send attempts by their outcome. */
  deliveryAttempts: 'longhaul_delivery_attempts_total',
  /** Histogram `{method, route, status}`: HTTP requests by route template (`_count` counts them). */
  httpRequestDuration: 'longhaul_http_request_duration_seconds',
} as const;

/** Prefix of the Node.js process metrics (`longhaul_process_cpu_seconds_total`, …). */
export const PROCESS_METRICS_PREFIX = 'longhaul_';
