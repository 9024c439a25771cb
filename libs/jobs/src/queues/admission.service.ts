import { Registry } from 'prom-client';
import { ErrorCodes, Lanes, type Lane, type LaneQueueView, type QueuesView } from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { decideAdmission, decideTenantAdmission, type AdmissionDecision, type AdmissionLimits, type AdmissionScope, type LimitBreach } from './admission.policy';
import type { QueueMonitor } from './queue.monitor';
import { topTenants, type LaneSample } from './queue-sample';

/** The admission limits of every lane. */
export interface AdmissionServiceLimits {
  maxDepth: Record<Lane, number>;
  maxLag: number;
  maxDepthPerTenant: Record<Lane, number>;
}

/**
 * Admission control on the submit path: refuses new jobs for a lane whose queue or consumer lag
 * has reached its limit, and for a tenant whose open steps in the lane have reached its share,
 * judged on the monitor's latest sample (no I/O on the request path).
 */
export class AdmissionService {
  private readonly metrics: JobsMetrics;

  constructor(
    private readonly monitor: Pick<QueueMonitor, 'latest' | 'current'>,
    private readonly limits: AdmissionServiceLimits,
    /** Where refusals are counted. @defaultValue a private registry nobody serves */
    registry: Registry = new Registry(),
  ) {
    this.metrics = jobsMetrics(registry);
  }

  /** The limits of one lane. */
  limitsOf(lane: Lane): AdmissionLimits {
    return { maxDepth: this.limits.maxDepth[lane], maxLag: this.limits.maxLag, maxDepthPerTenant: this.limits.maxDepthPerTenant[lane] };
  }

  /**
   * Whether `lane` takes a new job of `tenantId` right now. The lane's own limits are judged
   * first: while the lane refuses everyone, that is what the client is told.
   */
  decide(lane: Lane, tenantId: string): AdmissionDecision {
    const sample = this.monitor.latest()?.lanes[lane];
    const limits = this.limitsOf(lane);
    const decision = decideAdmission(sample, limits);
    return decision.admit ? decideTenantAdmission(tenantId, sample, limits) : decision;
  }

  /**
   * Throws `429 overloaded` (with `Retry-After`) when `lane` does not take a new job of
   * `tenantId`; the problem's `scope` says which limit refused (`lane` or `tenant`). Call it
   * before anything is written, so a refused submit leaves no trace.
   */
  assertAdmits(lane: Lane, tenantId: string): void {
    const decision = this.decide(lane, tenantId);
    if (decision.admit) return;
    const { scope, breaches, retryAfterSeconds } = decision;
    this.metrics.admissionRejections.inc({ lane, scope });
    const { problem } = ProblemError.of(429, ErrorCodes.overloaded, overloadedDetail(lane, scope, breaches, retryAfterSeconds), {
      lane,
      scope,
      breaches,
      retryAfterSeconds,
    });
    throw new ProblemError(problem, { 'Retry-After': String(retryAfterSeconds) });
  }

  /** `GET /v1/queues`: the latest figures of every lane, its deepest tenants, and whether it admits. */
  async view(): Promise<QueuesView> {
    const sample = await this.monitor.current();
    return {
      lanes: Lanes.map((lane) => this.laneView(sample.lanes[lane])),
      deadLetterTopics: sample.deadLetterTopics,
      sampledAt: sample.sampledAt.toISOString(),
    };
  }

  private laneView(sample: LaneSample): LaneQueueView {
    const limits = this.limitsOf(sample.lane);
    return {
      lane: sample.lane,
      depth: sample.depth,
      running: sample.running,
      lag: sample.lag,
      oldestWaitingMs: sample.oldestWaitingMs,
      throughputPerSecond: sample.throughputPerSecond,
      limits,
      admitting: decideAdmission(sample, limits).admit,
      tenants: topTenants(sample.tenantDepths),
    };
  }
}

/**
 * E.g. "lane 'fast' is overloaded: queue depth 12 has reached its limit of 10; retry in 3 s", or
 * "lane 'fast' is overloaded for this tenant: its open steps 5 have reached the per-tenant limit of 5; retry in 2 s".
 */
function overloadedDetail(lane: Lane, scope: AdmissionScope, breaches: LimitBreach[], retryAfterSeconds: number): string {
  const what = breaches.map((b) =>
    scope === 'tenant'
      ? `its open steps ${b.figure} have reached the per-tenant limit of ${b.max}`
      : `${b.limit === 'depth' ? 'queue depth' : 'consumer lag'} ${b.figure} has reached its limit of ${b.max}`,
  );
  return `lane '${lane}' is overloaded${scope === 'tenant' ? ' for this tenant' : ''}: ${what.join(' and ')}; retry in ${retryAfterSeconds} s`;
}
