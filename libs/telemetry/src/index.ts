export * from './telemetry.attributes';
export * from './trace-context';
export * from './logger.factory';
export * from './telemetry.sdk';
export * from './metric.names';
export * from './metrics.registry';
export * from './request-trace.context';
