export * from './rate-limit.options';
export * from './rate.limiter';
export * from './rate-bucket.store';
export * from './shared-rate.limiter';
export * from './rate-limit.headers';
export * from './rate-limit.metrics';
export * from './rate-limit.guard';
