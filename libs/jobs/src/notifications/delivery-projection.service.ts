import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { EventTypes, Topics, type DeliveryUpdatedV1 } from '@longhaul/contracts';
import { ConsumerLifecycle, EventConsumer, type Kafka } from '@longhaul/messaging';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import { DeliveryRepository } from './delivery.repository';

/** Consumer group of the delivery log projection. */
export const DELIVERIES_GROUP_ID = 'longhaul.api.deliveries';

/** Keeps `api.deliveries` (`GET /v1/jobs/{id}/deliveries`) up to date from the notifier's `job.deliveries`. */
@Injectable()
export class DeliveryProjectionService extends ConsumerLifecycle {
  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    const deliveries = new DeliveryRepository();
    super(
      new EventConsumer({
        kafka,
        dataSource,
        logger,
        groupId: DELIVERIES_GROUP_ID,
        topics: [Topics.jobDeliveries],
        schema: API_SCHEMA,
        handlers: {
          [EventTypes.DeliveryUpdatedV1]: (sql, event) => deliveries.upsert(sql, event.payload as DeliveryUpdatedV1),
        },
        registry,
      }),
    );
  }
}
