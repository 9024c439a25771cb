export * from './outbox.sql';
export * from './outbox.writer';
