export * from './notifier.migrations';
export * from './lifecycle-event.handler';
export * from './notifier.service';
export * from './notifications.module';
export * from './notifications.options';
