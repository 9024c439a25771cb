import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { EmailSender } from '../email/email.sender';
import { NOTIFICATIONS_OPTIONS, type NotificationsOptions } from '../notifications.options';
import { WebhookSender } from '../webhooks/webhook.sender';
import { DeliveryDispatcher } from './delivery.dispatcher';

/** How long past the send timeout a claimed delivery stays this instance's. */
const LEASE_MARGIN_MS = 30_000;

/** Runs the {@link DeliveryDispatcher} for the life of the notifier process. */
@Injectable()
export class DeliveryDispatcherService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly dispatcher: DeliveryDispatcher;
  private readonly webhook: WebhookSender;
  private readonly email: EmailSender;

  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
    @Inject(NOTIFICATIONS_OPTIONS) options: NotificationsOptions,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.webhook = new WebhookSender(options.webhook);
    this.email = new EmailSender(options.smtp);
    const leaseMs = Math.max(options.webhook.timeoutMs, options.smtp.timeoutMs * 3) + LEASE_MARGIN_MS;
    this.dispatcher = new DeliveryDispatcher(
      dataSource,
      { webhook: this.webhook, email: this.email },
      { ...options.deliveries, leaseMs, signingKey: options.signingKey },
      logger.child({ component: 'deliveries' }),
      registry,
    );
  }

  onApplicationBootstrap(): void {
    this.dispatcher.start();
  }

  /** Before any module's `onApplicationShutdown`, so the database is still there to record attempts in flight. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
    await this.webhook.close();
    this.email.close();
  }
}
