export * from './config.loader';
export * from './common.config';
export * from './telemetry.config';
export * from './webhook.config';
