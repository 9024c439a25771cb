/** Injection tokens of what every Longhaul service shares. */
export const DATA_SOURCE = Symbol('longhaul.dataSource');
export const KAFKA = Symbol('longhaul.kafka');
export const LOGGER = Symbol('longhaul.logger');
export const SERVICE_INFO = Symbol('longhaul.serviceInfo');
/** The process's one metrics registry (prom-client), served on `GET /metrics`. */
export const METRICS_REGISTRY = Symbol('longhaul.metricsRegistry');
/** The process's `KafkaAdminSession` for reads that must never hold anything up (readiness, lag). */
export const KAFKA_ADMIN = Symbol('longhaul.kafkaAdmin');
/** The `ReadinessProbe` behind `GET /readyz`. */
export const READINESS = Symbol('longhaul.readiness');

/** Who this process is. */
export interface ServiceInfo {
  /** `api`, `transcoder`, `thumbnailer`, `notifier`. */
  name: string;
  /** The schema the service owns. */
  schema: string;
  /** Unique per process: host and pid. */
  instanceId: string;
}
