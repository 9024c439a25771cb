import type { KafkaAdminSession } from '@longhaul/messaging';
import type { RelayConnectorClient } from '@longhaul/outbox';
import { withConnection, type DataSource } from '@longhaul/persistence';
import type { ReadinessCheck } from './readiness.check';

/** Postgres answers a query on a pooled connection. */
export function postgresCheck(dataSource: DataSource): ReadinessCheck {
  return { name: 'postgres', run: () => withConnection(dataSource, (sql) => sql.rows('SELECT 1')).then(() => undefined) };
}

/** The Kafka cluster can be described: a broker answers and names the controller. */
export function kafkaCheck(admin: KafkaAdminSession): ReadinessCheck {
  return {
    name: 'kafka',
    run: async () => {
      const cluster = await admin.run((client) => client.describeCluster());
      if (cluster.brokers.length === 0) throw new Error('Kafka answered with no broker');
    },
  };
}

/** The relay (the Debezium connector on Kafka Connect) runs, so this service's outbox flows. */
export function relayCheck(connector: RelayConnectorClient): ReadinessCheck {
  return { name: 'relay', run: (signal) => connector.assertRunning(signal) };
}
