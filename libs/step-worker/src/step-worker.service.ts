import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { StepRequestedV1 } from '@longhaul/contracts';
import { EventConsumer, type Kafka } from '@longhaul/messaging';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, SERVICE_INFO, type ServiceInfo } from '@longhaul/platform';
import { contextFromTraceparent, currentTraceparent, SpanAttributes, SpanNames, type Logger } from '@longhaul/telemetry';
import { WorkQueueRepository, WorkQueueRunner, type WorkItem } from '@longhaul/work-queue';
import { STEP_EXECUTOR, type StepExecutor } from './step-executor';
import { createStepRequestHandler } from './step-request.handler';
import { StepResultPublisher } from './step-result.publisher';
import { STEP_WORKER_OPTIONS, type StepWorkerOptions } from './step-worker.options';

/**
 * A step worker: the Kafka consumer turns requests into durable work items; the runner executes
 * them under leases and publishes `StepStarted` / `StepCompleted` / `StepFailed` through the
 * outbox in the transactions that claim and finish each item.
 */
@Injectable()
export class StepWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly consumer: EventConsumer;
  private readonly runner: WorkQueueRunner<{ result: Record<string, unknown>; traceparent: string | null }>;
  private readonly publisher: StepResultPublisher;
  private readonly tracer = trace.getTracer('longhaul.step-worker');

  constructor(
    @Inject(STEP_WORKER_OPTIONS) private readonly options: StepWorkerOptions,
    @Inject(STEP_EXECUTOR) private readonly executor: StepExecutor,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {
    const queue = new WorkQueueRepository(info.schema);
    this.publisher = new StepResultPublisher(info.schema, info.instanceId);
    this.consumer = new EventConsumer({
      kafka,
      dataSource,
      logger,
      groupId: options.groupId,
      topics: options.requestTopics,
      schema: info.schema,
      handlers: { [options.requestType]: createStepRequestHandler(queue, options.deadlineMs) },
    });
    this.runner = new WorkQueueRunner({
      dataSource,
      logger,
      schema: info.schema,
      owner: info.instanceId,
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      onClaimed: (sql, item) => this.publisher.started(sql, request(item), item.traceparent).then(() => undefined),
      execute: (item, signal) => this.execute(item, signal),
      onSucceeded: (sql, item, outcome) =>
        this.publisher.completed(sql, request(item), outcome.result, outcome.traceparent).then(() => undefined),
      onFailed: (sql, item, error) =>
        this.publisher.failed(sql, request(item), error.toJSON(), item.traceparent).then(() => undefined),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumer.start();
    this.runner.start();
    this.logger.info({ step: this.options.step, topics: this.options.requestTopics }, 'step worker started');
  }

  /** Runs before the core module closes the database, so in-flight work can still be recorded or handed back. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.consumer.stop();
    await this.runner.stop(this.options.shutdownGraceMs);
  }

  /** Runs one attempt inside a span that continues the job's trace. */
  private async execute(item: WorkItem, signal: AbortSignal): Promise<{ result: Record<string, unknown>; traceparent: string | null }> {
    const req = request(item);
    const span = this.tracer.startSpan(
      SpanNames.stepRun(req.step),
      { attributes: { [SpanAttributes.jobId]: req.jobId, [SpanAttributes.step]: req.step, [SpanAttributes.attempt]: req.attempt, [SpanAttributes.worker]: this.info.instanceId } },
      contextFromTraceparent(item.traceparent),
    );
    return context.with(trace.setSpan(context.active(), span), async () => {
      try {
        const result = await this.executor.run(req, { signal, worker: this.info.instanceId });
        return { result, traceparent: currentTraceparent() };
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    });
  }
}

function request(item: WorkItem): StepRequestedV1 {
  return item.payload as unknown as StepRequestedV1;
}
