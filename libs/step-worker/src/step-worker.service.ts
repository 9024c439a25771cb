import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Registry } from 'prom-client';
import { EventTypes, Topics, type StepRequestedV1 } from '@longhaul/contracts';
import { EventConsumer, type Kafka } from '@longhaul/messaging';
import { EffectLedger, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, METRICS_REGISTRY, MetricSampler, SERVICE_INFO, type ServiceInfo } from '@longhaul/platform';
import { contextFromTraceparent, currentTraceparent, SpanAttributes, SpanNames, type Logger } from '@longhaul/telemetry';
import {
  WorkQueueRepository,
  WorkQueueRunner,
  WorkQueueSampler,
  workQueueMetrics,
  type RunContext,
  type WorkItem,
} from '@longhaul/work-queue';
import { createCancelJobHandler } from './cancel-job.handler';
import { QueuedItemsAnnouncer } from './queued-items.announcer';
import { CancelledJobsRepository } from './cancelled-jobs.repository';
import { STEP_EXECUTOR, type StepExecutor } from './step-executor';
import { createStepRequestHandler } from './step-request.handler';
import { StepResultPublisher } from './step-result.publisher';
import { STEP_WORKER_OPTIONS, type StepWorkerLaneOptions, type StepWorkerOptions } from './step-worker.options';

/** The effect recorded in `<schema>.effect_ledger` each time a work item succeeds. */
export const WORK_ITEM_SUCCEEDED_EFFECT = 'work_item.succeeded';

/** What a run returns: the step's result, the run's trace context, and when it started here. */
type Outcome = { result: Record<string, unknown>; traceparent: string | null; startedAt: string };

/** Time between two samples of the queue gauges (depth, running, oldest queued age). */
const QUEUE_SAMPLE_MS = 5_000;
/** Longest one queue sample may take. */
const QUEUE_SAMPLE_TIMEOUT_MS = 3_000;

/**
 * One lane at work: its consumer fills the queue with the lane's items, its runner drains them,
 * and its announcer (none when `queuedReportMs` is 0) tells the saga of items left waiting.
 */
interface LaneWorker {
  lane: StepWorkerLaneOptions;
  consumer: EventConsumer;
  runner: WorkQueueRunner<Outcome>;
  announcer: QueuedItemsAnnouncer | null;
}

/**
 * A step worker. Per lane, a Kafka consumer turns requests into durable work items (started at
 * once in a free slot, or queued and announced with `StepQueued` once they have waited
 * `queuedReportMs`) and a runner executes that lane's items
 * under leases, so slow work never takes a fast slot. Runners publish `StepStarted` (once a run
 * has lasted `startReportMs`), `StepProgress`, `StepCompleted`, `StepFailed` and `StepDemoted`
 * through the outbox in the transactions that renew and finish each item. A `job.control`
 * consumer applies cancels.
 */
@Injectable()
export class StepWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly lanes: LaneWorker[];
  private readonly control: EventConsumer;
  private readonly publisher: StepResultPublisher;
  private readonly ledger: EffectLedger;
  private readonly queueGauges: MetricSampler;
  private readonly tracer = trace.getTracer('longhaul.step-worker');

  constructor(
    @Inject(STEP_WORKER_OPTIONS) private readonly options: StepWorkerOptions,
    @Inject(STEP_EXECUTOR) private readonly executor: StepExecutor,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {
    if (options.lanes.length === 0) throw new Error('a step worker needs at least one lane');
    const queue = new WorkQueueRepository(info.schema);
    const cancelledJobs = new CancelledJobsRepository(info.schema);
    this.publisher = new StepResultPublisher(info.schema, info.instanceId);
    this.ledger = new EffectLedger(info.schema, options.effectLedger);
    this.lanes = options.lanes.map((lane) => this.laneWorker(lane, queue, cancelledJobs));
    this.control = new EventConsumer({
      kafka,
      dataSource,
      logger,
      groupId: options.controlGroupId,
      topics: [Topics.jobControl],
      schema: info.schema,
      handlers: { [EventTypes.CancelJobV1]: createCancelJobHandler(queue, cancelledJobs, logger) },
      registry,
    });
    const gauges = new WorkQueueSampler(dataSource, info.schema, options.lanes.map((l) => l.lane), workQueueMetrics(registry));
    this.queueGauges = new MetricSampler({
      name: 'work-queue',
      intervalMs: QUEUE_SAMPLE_MS,
      timeoutMs: QUEUE_SAMPLE_TIMEOUT_MS,
      sample: () => gauges.sample(),
      onFailure: () => gauges.clear(),
      logger: logger.child({ component: 'metrics' }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.control.start(), ...this.lanes.map((l) => l.consumer.start())]);
    for (const { runner, announcer } of this.lanes) {
      runner.start();
      announcer?.start();
    }
    this.queueGauges.start();
    this.logger.info(
      { step: this.options.step, lanes: this.options.lanes.map(({ lane, topics, concurrency, budgetMs }) => ({ lane, topics, concurrency, budgetMs })) },
      'step worker started',
    );
  }

  /**
   * Runs before the core module closes the database, so in-flight work can still be recorded or
   * handed back. Consumers stop first, so no new item arrives while runners drain.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.control.stop(), ...this.lanes.map((l) => l.consumer.stop())]);
    await Promise.all(this.lanes.flatMap((l) => [l.runner.stop(this.options.shutdownGraceMs), l.announcer?.stop()]));
    await this.queueGauges.stop();
  }

  private laneWorker(lane: StepWorkerLaneOptions, queue: WorkQueueRepository, cancelledJobs: CancelledJobsRepository): LaneWorker {
    const { options, info, logger, publisher } = this;
    const runner = new WorkQueueRunner<Outcome>({
      dataSource: this.dataSource,
      logger,
      schema: info.schema,
      owner: info.instanceId,
      lane: lane.lane,
      concurrency: lane.concurrency,
      budgetMs: lane.budgetMs,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      progressMs: options.progressIntervalMs,
      startReportMs: options.startReportMs,
      registry: this.registry,
      onStarted: async (sql, item) => {
        await publisher.started(sql, request(item), item.traceparent);
      },
      execute: (item, run) => this.execute(item, run),
      onProgress: async (sql, item, progress) => {
        await publisher.progress(sql, request(item), progress, item.traceparent);
      },
      onSucceeded: async (sql, item, outcome) => {
        const req = request(item);
        await publisher.completed(sql, req, outcome.result, outcome.traceparent, outcome.startedAt);
        await this.ledger.record(sql, { effect: WORK_ITEM_SUCCEEDED_EFFECT, jobId: req.jobId, step: req.step, attempt: req.attempt });
      },
      onFailed: async (sql, item, error) => {
        await publisher.failed(sql, request(item), error.toJSON(), item.traceparent);
      },
      onDemoted: async (sql, item, budgetMs) => {
        await publisher.demoted(sql, request(item), budgetMs, item.traceparent);
      },
    });
    const requests = createStepRequestHandler({
      queue,
      cancelledJobs,
      publisher,
      lane: lane.lane,
      deadlineMs: options.deadlineMs,
      queuedReportMs: options.queuedReportMs,
      logger,
      // A request that finds a free slot in this process runs there at once; one that does not
      // is queued, and the runner claims at once rather than at its next poll.
      slots: runner,
    });
    const consumer = new EventConsumer({
      kafka: this.kafka,
      dataSource: this.dataSource,
      logger,
      groupId: lane.groupId,
      topics: lane.topics,
      schema: info.schema,
      handlers: { [options.requestType]: requests.handle },
      beforeHandling: (sql, events) => requests.lockJobs(sql, events),
      registry: this.registry,
    });
    const announcer =
      options.queuedReportMs > 0
        ? new QueuedItemsAnnouncer({ dataSource: this.dataSource, queue, publisher, lane: lane.lane, reportMs: options.queuedReportMs, logger })
        : null;
    return { lane, consumer, runner, announcer };
  }

  /** Runs one attempt inside a span that continues the job's trace. */
  private async execute(item: WorkItem, run: RunContext): Promise<Outcome> {
    const req = request(item);
    const startedAt = new Date().toISOString();
    const span = this.tracer.startSpan(
      SpanNames.stepRun(req.step),
      { attributes: { [SpanAttributes.jobId]: req.jobId, [SpanAttributes.step]: req.step, [SpanAttributes.attempt]: req.attempt, [SpanAttributes.worker]: this.info.instanceId } },
      contextFromTraceparent(item.traceparent),
    );
    return context.with(trace.setSpan(context.active(), span), async () => {
      try {
        const result = await this.executor.run(req, { signal: run.signal, worker: this.info.instanceId, reportProgress: run.reportProgress });
        return { result, traceparent: currentTraceparent(), startedAt };
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
