import { Registry } from 'prom-client';
import { Lanes, type DeadLetterTopicView, type Lane } from '@longhaul/contracts';
import type { Logger } from '@longhaul/telemetry';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { unknownLags, type LaneLags } from './consumer-lag.repository';
import { topTenants, type LaneStepFigures, type QueueSample } from './queue-sample';

/** Where the monitor reads from, and how often. */
export interface QueueMonitorDeps {
  /** `withTenants` false: the tenants' depths are not read, and the figures carry an empty map. */
  stats: { read(withTenants?: boolean): Promise<Record<Lane, LaneStepFigures>> };
  lag: { read(): Promise<LaneLags>; readDeadLetters?(): Promise<DeadLetterTopicView[] | null>; close(): Promise<void> };
  logger: Logger;
  /** Step-table sampling period, in ms. */
  sampleMs: number;
  /** Lag sampling period, in ms (at least `sampleMs`). */
  lagSampleMs: number;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Where the per-tenant depth gauge is set. @defaultValue a private registry nobody serves */
  registry?: Registry;
  /**
   * Open steps (queued or running) of a lane from which its tenants' depths are read at every
   * sample; below it they are read every `tenantRefreshMs`. Absent: at every sample.
   * @see QueueMonitor
   */
  tenantDepthsFrom?: Record<Lane, number>;
  /** Longest time between two reads of the tenants' depths, in ms. @defaultValue {@link TENANT_REFRESH_MS} */
  tenantRefreshMs?: number;
}

/** @see QueueMonitorDeps.tenantRefreshMs */
export const TENANT_REFRESH_MS = 10_000;

/**
 * Keeps the latest figures of every lane in memory for admission and `GET /v1/queues`. In the
 * background it reads the step table every `sampleMs` and the consumer lag every `lagSampleMs`,
 * each independently, so a slow broker never delays the database figures. A failed read keeps
 * the last good figures (lag becomes unknown); nothing is ever thrown out of the timer. Each step
 * read also sets `longhaul_tenant_queue_depth` for the deepest tenants of each lane; while the
 * step table is unreadable that gauge is dropped, as every sampled gauge is.
 *
 * The tenants' depths cost the read one index lookup per open step, so with `tenantDepthsFrom`
 * they are read at every sample only while some lane holds that many open steps (the api passes
 * half of each lane's per-tenant limit: below it no tenant is near its limit), and otherwise
 * every `tenantRefreshMs`. In between, a sample carries the last ones read, each cut to its
 * lane's open steps now, since no tenant holds more than its lane. The submit benchmark, whose
 * queue nothing drains, had this read take up to 260 ms of a core every second
 * (docs/benchmarks/tuning.md, section 23).
 */
export class QueueMonitor {
  private steps: { sampledAt: Date; lanes: Record<Lane, LaneStepFigures> } | null = null;
  private lags: LaneLags = unknownLags();
  private deadLetters: DeadLetterTopicView[] | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private tick: Promise<void> | null = null;
  private lagRead: Promise<void> | null = null;
  private lastLagReadAt = Number.NEGATIVE_INFINITY;
  private stepsFailing = false;
  private tenantsReadAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly metrics: JobsMetrics;

  constructor(private readonly deps: QueueMonitorDeps) {
    this.now = deps.now ?? Date.now;
    this.metrics = jobsMetrics(deps.registry ?? new Registry());
  }

  /** Starts sampling in the background; the first sample is taken at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops sampling, waits for reads in flight (each bounded), and closes the Kafka admin. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.all([this.tick, this.lagRead]);
    await this.deps.lag.close().catch(() => undefined);
  }

  /** The latest figures, or null before the first read of the step table succeeded. */
  latest(): QueueSample | null {
    if (!this.steps) return null;
    const lanes = Object.fromEntries(
      Lanes.map((lane) => [lane, { lane, ...this.steps!.lanes[lane], lag: this.lags[lane] }]),
    ) as QueueSample['lanes'];
    return { sampledAt: this.steps.sampledAt, lanes, deadLetterTopics: this.deadLetters };
  }

  /** The latest figures, reading the step table now if there are none yet (may throw). */
  async current(): Promise<QueueSample> {
    const latest = this.latest();
    if (latest) return latest;
    await this.sampleSteps();
    return this.latest()!;
  }

  /** Reads the step table now and keeps the figures (throws if the read fails). */
  async sampleSteps(): Promise<void> {
    const withTenants = this.tenantsDue();
    const lanes = await this.deps.stats.read(withTenants);
    if (withTenants) this.tenantsReadAt = this.now();
    else carryTenantDepths(lanes, this.steps?.lanes);
    this.steps = { sampledAt: new Date(this.now()), lanes };
    this.publishTenantDepths(lanes);
  }

  /** Whether this sample reads the tenants' depths (see the class comment). */
  private tenantsDue(): boolean {
    const from = this.deps.tenantDepthsFrom;
    const last = this.steps?.lanes;
    if (!from || !last) return true;
    if (this.now() - this.tenantsReadAt >= (this.deps.tenantRefreshMs ?? TENANT_REFRESH_MS)) return true;
    return Lanes.some((lane) => openSteps(last[lane]) >= from[lane]);
  }

  /** Reads the consumer lag now and keeps it (never throws; unknown lanes become null). */
  async sampleLag(): Promise<void> {
    this.lags = await this.deps.lag.read().catch(() => unknownLags());
    this.deadLetters = (await this.deps.lag.readDeadLetters?.().catch(() => null)) ?? null;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.tick = this.runTick().finally(() => {
        this.tick = null;
        if (this.running) this.schedule(this.deps.sampleMs);
      });
    }, delayMs);
    // Sampling alone must never keep the process alive.
    this.timer.unref();
  }

  private async runTick(): Promise<void> {
    this.maybeSampleLag();
    try {
      await this.sampleSteps();
      if (this.stepsFailing) this.deps.logger.info('queue figures readable again');
      this.stepsFailing = false;
    } catch (error) {
      if (!this.stepsFailing) this.deps.logger.warn({ err: error }, 'queue figures unreadable; keeping the last ones');
      this.stepsFailing = true;
      // Admission keeps judging on the last figures, but a gauge must not claim they are current.
      this.metrics.tenantQueueDepth.reset();
    }
  }

  /** Replaces the gauge's series with this sample's deepest tenants, so a tenant that left the top leaves no stale series. */
  private publishTenantDepths(lanes: Record<Lane, LaneStepFigures>): void {
    const gauge = this.metrics.tenantQueueDepth;
    gauge.reset();
    for (const lane of Lanes) {
      for (const { tenantId, depth } of topTenants(lanes[lane].tenantDepths)) gauge.set({ tenant: tenantId, lane }, depth);
    }
  }

  /** Starts a lag read when one is due and none is in flight; the tick does not wait for it. */
  private maybeSampleLag(): void {
    if (this.lagRead || this.now() - this.lastLagReadAt < this.deps.lagSampleMs) return;
    this.lastLagReadAt = this.now();
    this.lagRead = this.sampleLag().finally(() => {
      this.lagRead = null;
    });
  }
}

/** A lane's open steps: queued or running, what a tenant's depth counts. */
function openSteps(figures: LaneStepFigures): number {
  return figures.depth + figures.running;
}

/** Gives each lane of `lanes` the tenants' depths of `previous`, each at most the lane's open steps now. */
function carryTenantDepths(lanes: Record<Lane, LaneStepFigures>, previous: Record<Lane, LaneStepFigures> | undefined): void {
  for (const lane of Lanes) {
    const open = openSteps(lanes[lane]);
    const carried = new Map<string, number>();
    for (const [tenantId, depth] of previous?.[lane].tenantDepths ?? []) if (open > 0) carried.set(tenantId, Math.min(depth, open));
    lanes[lane] = { ...lanes[lane], tenantDepths: carried };
  }
}
