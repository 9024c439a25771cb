export * from './outbox.sql';
export * from './outbox.writer';
export * from './outbox.relay';
export * from './outbox.metrics';
export * from './relay-lag.repository';
export * from './relay-lag.sampler';
export * from './relay-connector.policy';
export * from './relay-connector.client';
