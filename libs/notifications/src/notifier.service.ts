import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { Topics } from '@longhaul/contracts';
import { ConsumerLifecycle, EventConsumer, type Kafka } from '@longhaul/messaging';
import { EffectLedger, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { lifecycleHandlers } from './lifecycle-event.handler';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from './notifications.options';
import { NOTIFIER_SCHEMA } from './notifier.migrations';

/** Consumer group of the notifier. */
export const NOTIFIER_GROUP_ID = 'longhaul.notifier';

/** Consumes `job.lifecycle` for the life of the notifier process. */
@Injectable()
export class NotifierService extends ConsumerLifecycle {
  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) logger: Logger,
    @Inject(NOTIFICATIONS_OPTIONS) options: NotificationsOptions,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    super(
      new EventConsumer({
        kafka,
        dataSource,
        logger,
        groupId: NOTIFIER_GROUP_ID,
        topics: [Topics.jobLifecycle],
        schema: NOTIFIER_SCHEMA,
        handlers: lifecycleHandlers(logger.child({ component: 'notifications' }), new EffectLedger(NOTIFIER_SCHEMA, options.effectLedger)),
        registry,
      }),
    );
  }
}
