/** Injection tokens of what every Longhaul service shares. */
export const DATA_SOURCE = Symbol('longhaul.dataSource');
export const KAFKA = Symbol('longhaul.kafka');
export const LOGGER = Symbol('longhaul.logger');
export const SERVICE_INFO = Symbol('longhaul.serviceInfo');

/** Who this process is. */
export interface ServiceInfo {
  /** `api`, `transcoder`, `thumbnailer`, `notifier`. */
  name: string;
  /** The schema the service owns. */
  schema: string;
  /** Unique per process: host and pid. */
  instanceId: string;
}
