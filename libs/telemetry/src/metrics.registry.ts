import { collectDefaultMetrics, Registry } from 'prom-client';
import { PROCESS_METRICS_PREFIX } from './metric.names';

export type { Registry } from 'prom-client';

/** Options of {@link createMetricsRegistry}. */
export interface MetricsRegistryOptions {
  /** Set as the `service` label of every series: `api`, `transcoder`, … */
  service: string;
  /**
   * Also collect the Node.js process metrics (CPU, memory, event loop lag, GC), prefixed
   * `longhaul_`. @defaultValue true
   */
  processMetrics?: boolean;
}

/**
 * The one metrics registry of a process, served as Prometheus text on `GET /metrics`. Libraries
 * register their metrics on it through {@link metricsOf}; nothing uses prom-client's global
 * registry, so tests can make as many registries as they like.
 */
export function createMetricsRegistry(options: MetricsRegistryOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: PROCESS_METRICS_PREFIX });
  return registry;
}

/**
 * Turns a lib's metric definitions into a function that makes them once per registry and hands
 * back the same instances after that: a registry refuses a second metric of one name, and
 * several classes of one lib (several consumers, say) share its counters.
 *
 * A caller without a registry (a unit test) passes a fresh `new Registry()`, whose metrics work
 * and are never served.
 */
export function metricsOf<T>(define: (registry: Registry) => T): (registry: Registry) => T {
  const made = new WeakMap<Registry, T>();
  return (registry) => {
    let metrics = made.get(registry);
    if (metrics === undefined) {
      metrics = define(registry);
      made.set(registry, metrics);
    }
    return metrics;
  };
}
