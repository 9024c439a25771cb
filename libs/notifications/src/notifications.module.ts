import { Module } from '@nestjs/common';
import { NotifierService } from './notifier.service';

/** The notifier's consumers. */
@Module({ providers: [NotifierService] })
export class NotificationsModule {}
