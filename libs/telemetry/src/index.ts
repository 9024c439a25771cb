export * from './telemetry.attributes';
export * from './trace-context';
export * from './logger.factory';
export * from './telemetry.sdk';
