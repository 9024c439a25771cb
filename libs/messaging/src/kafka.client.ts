import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@longhaul/telemetry';
import { fixKafkajsRequestQueue } from './kafkajs-request-queue.fix';

/** Options of {@link createKafka}. */
export interface KafkaClientOptions {
  brokers: string[];
  /** Shown in broker logs and quotas: the service name. */
  clientId: string;
  logger: Logger;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * A kafkajs client whose logs go to the service's structured logger, with its request queue's
 * idle timer loop fixed ({@link fixKafkajsRequestQueue}).
 */
export function createKafka(options: KafkaClientOptions): Kafka {
  fixKafkajsRequestQueue();
  const log = options.logger.child({ component: 'kafka' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    // Reconnect patiently: a broker restart must not kill the service.
    retry: { initialRetryTime: 300, retries: 30, maxRetryTime: 10_000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        log[LEVELS[level] ?? 'info'](rest, message);
      },
  });
}
