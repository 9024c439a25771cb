export * from './config.loader';
export * from './common.config';
export * from './retention.config';
export * from './telemetry.config';
export * from './webhook.config';
export * from './cors.config';
export * from './secret.policy';
