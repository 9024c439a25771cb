export * from './inbound-event';
export * from './message.decoder';
export * from './inbox.sql';
export * from './inbox.repository';
export * from './kafka.client';
export * from './topic.provisioner';
export * from './dead-letter.publisher';
export * from './event-consumer';
export type { Kafka } from 'kafkajs';
