import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Registry } from 'prom-client';
import type { DeliveryAttemptView } from '@longhaul/contracts';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import { PollingLoop } from '@longhaul/platform';
import { contextFromTraceparent, SpanAttributes, SpanNames, type Logger } from '@longhaul/telemetry';
import { endpointSecret, jobWebhookSecret, webhookSignatureHeaders } from '@longhaul/webhooks';
import type { EmailSender } from '../email/email.sender';
import { notificationsMetrics, type NotificationsMetrics } from '../notifications.metrics';
import { webhookBody } from '../webhooks/webhook-body.builder';
import type { WebhookSender } from '../webhooks/webhook.sender';
import type { AttemptResult } from './attempt.result';
import { publishDeliveryReport } from './delivery-report.publisher';
import type { DeliveryRecord } from './delivery.record';
import { DeliveryRepository } from './delivery.repository';
import { decideAfterAttempt, type DeliveryRetryPolicy } from './delivery-retry.policy';

/** Options of {@link DeliveryDispatcher}. */
export interface DeliveryDispatcherOptions {
  retry: DeliveryRetryPolicy;
  /** Sends in flight at once, across channels (`DELIVERY_CONCURRENCY`). */
  concurrency: number;
  /** How often due deliveries are looked for (`DELIVERY_POLL_MS`). */
  pollMs: number;
  /** How long a claimed delivery is this instance's; longer than any send may take. */
  leaseMs: number;
  /** Derives the webhook signing secrets (`WEBHOOK_SIGNING_KEY`). */
  signingKey: string;
}

/**
 * Sends due deliveries. Each pass claims as many as there are free slots and starts them without
 * waiting: a slow receiver (cut at the send timeout) holds one slot, never the others. After each
 * attempt ONE transaction records it (fenced on the attempt count), decides what comes next
 * (delivered, retry at a backed-off time, or given up) and reports the delivery on
 * `job.deliveries`. A crash between a send and its record leads to a second send with the same
 * `webhook-id` / `Message-ID` once the lease runs out: the receiver can tell.
 */
export class DeliveryDispatcher {
  private readonly deliveries = new DeliveryRepository();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly tracer = trace.getTracer('longhaul.notifier');
  private readonly loop: PollingLoop;
  private readonly metrics: NotificationsMetrics;

  constructor(
    private readonly dataSource: DataSource,
    private readonly senders: { webhook: WebhookSender; email: EmailSender },
    private readonly options: DeliveryDispatcherOptions,
    private readonly logger: Logger,
    /** Where send attempts are counted. @defaultValue a private registry nobody serves */
    registry: Registry = new Registry(),
  ) {
    this.loop = new PollingLoop('deliveries', options.pollMs, () => this.pass(), logger);
    this.metrics = notificationsMetrics(registry);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the sends in flight to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  /** One pass; true when every free slot was filled (there may be more due right away). */
  async pass(): Promise<boolean> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return false;
    const claimed = await withConnection(this.dataSource, (sql) => this.deliveries.claimDue(sql, free, this.options.leaseMs));
    for (const delivery of claimed) {
      const running: Promise<void> = this.deliver(delivery)
        .catch((error: unknown) => this.logger.error({ err: error, job_id: delivery.jobId, delivery_id: delivery.id }, 'delivery attempt not recorded; retried when its lease runs out'))
        .finally(() => this.inFlight.delete(running));
      this.inFlight.add(running);
    }
    return claimed.length === free;
  }

  private async deliver(delivery: DeliveryRecord): Promise<void> {
    const number = delivery.attempts.length + 1;
    const span = this.tracer.startSpan(
      SpanNames.deliver(delivery.channel),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [SpanAttributes.jobId]: delivery.jobId,
          [SpanAttributes.deliveryId]: delivery.id,
          [SpanAttributes.deliveryChannel]: delivery.channel,
          [SpanAttributes.deliveryAttempt]: number,
        },
      },
      contextFromTraceparent(delivery.traceparent),
    );
    await context.with(trace.setSpan(context.active(), span), async () => {
      const startedAt = new Date();
      const result = await this.send(delivery, startedAt);
      // Counted as sent, whether or not recording it succeeds: the receiver saw the attempt.
      this.metrics.deliveryAttempts.inc({ channel: delivery.channel, outcome: result.outcome });
      const attempt: DeliveryAttemptView = {
        attempt: number,
        at: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        outcome: result.outcome,
        statusCode: result.statusCode,
        error: result.error,
      };
      span.setAttribute(SpanAttributes.deliveryOutcome, result.outcome);
      if (result.outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.message });
      try {
        const decision = decideAfterAttempt(attempt, this.options.retry, new Date(), result.retryAfterMs);
        const recorded = await inTransaction(this.dataSource, async (sql) => {
          const updated = await this.deliveries.recordAttempt(sql, delivery, attempt, decision);
          if (updated) await publishDeliveryReport(sql, updated);
          return updated;
        });
        this.log(delivery, attempt, recorded);
      } finally {
        span.end();
      }
    });
  }

  private send(delivery: DeliveryRecord, now: Date): Promise<AttemptResult> {
    if (delivery.channel === 'email') return this.senders.email.send(delivery.target, delivery.messageId, delivery.payload);
    const body = webhookBody(delivery.payload);
    const secret = delivery.endpointId
      ? endpointSecret(this.options.signingKey, delivery.endpointId)
      : jobWebhookSecret(this.options.signingKey, delivery.jobId);
    return this.senders.webhook.send(delivery.target, { ...webhookSignatureHeaders(secret, delivery.messageId, body, now) }, body);
  }

  private log(delivery: DeliveryRecord, attempt: DeliveryAttemptView, recorded: DeliveryRecord | null): void {
    const fields = {
      job_id: delivery.jobId,
      delivery_id: delivery.id,
      channel: delivery.channel,
      event: delivery.event,
      attempt: attempt.attempt,
      status_code: attempt.statusCode,
      error_code: attempt.error?.code,
      status: recorded?.status,
      next_attempt_at: recorded?.nextAttemptAt?.toISOString(),
    };
    if (!recorded) this.logger.warn(fields, 'delivery attempt superseded by another instance; not recorded');
    else if (recorded.status === 'delivered') this.logger.info(fields, 'notification delivered');
    else if (recorded.status === 'failed') this.logger.warn(fields, 'notification given up');
    else this.logger.info(fields, 'notification attempt failed; retry scheduled');
  }
}
