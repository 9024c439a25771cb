import { Module, type DynamicModule } from '@nestjs/common';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from './notifications.options';
import { NotifierService } from './notifier.service';

/** The notifier's consumers. */
@Module({})
export class NotificationsModule {
  static forRoot(options: NotificationsOptions): DynamicModule {
    return { module: NotificationsModule, providers: [{ provide: NOTIFICATIONS_OPTIONS, useValue: options }, NotifierService] };
  }
}
