import { Module, type DynamicModule } from '@nestjs/common';
import { NOTIFIER_SCHEMA, notifierHistory, notifierMigrations, NotificationsModule } from '@longhaul/notifications';
import { CoreModule } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { notificationsOptions, type NotifierConfig } from './app.config';

/** The notifier: consumes job lifecycle events and delivers signed webhooks and email about each job's end. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: NotifierConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'notifier', schema: NOTIFIER_SCHEMA, config, logger, migrations: notifierMigrations, history: notifierHistory, onShutdown }),
        NotificationsModule.forRoot(notificationsOptions(config)),
      ],
    };
  }
}
