import { Module, type DynamicModule } from '@nestjs/common';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from './notifications.options';
import { NotifierService } from './notifier.service';
import { DeliveryDispatcherService } from './deliveries/delivery-dispatcher.service';

/** The notifier's consumer of `job.lifecycle` and the dispatcher that sends webhooks and email. */
@Module({})
export class NotificationsModule {
  static forRoot(options: NotificationsOptions): DynamicModule {
    return { module: NotificationsModule, providers: [{ provide: NOTIFICATIONS_OPTIONS, useValue: options }, NotifierService, DeliveryDispatcherService] };
  }
}
