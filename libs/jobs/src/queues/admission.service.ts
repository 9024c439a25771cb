import { Registry } from 'prom-client';
import { ErrorCodes, Lanes, type Lane, type LaneQueueView, type QueuesView } from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { decideAdmission, type AdmissionDecision, type AdmissionLimits, type LimitBreach } from './admission.policy';
import type { QueueMonitor } from './queue.monitor';
import type { LaneSample } from './queue-sample';

/**
 * Admission control on the submit path: refuses new jobs for a lane whose queue or consumer lag
 * has reached its limit, judged on the monitor's latest sample (no I/O on the request path).
 */
export class AdmissionService {
  private readonly metrics: JobsMetrics;

  constructor(
    private readonly monitor: Pick<QueueMonitor, 'latest' | 'current'>,
    private readonly limits: { maxDepth: Record<Lane, number>; maxLag: number },
    /** Where refusals are counted. @defaultValue a private registry nobody serves */
    registry: Registry = new Registry(),
  ) {
    this.metrics = jobsMetrics(registry);
  }

  /** The limits of one lane. */
  limitsOf(lane: Lane): AdmissionLimits {
    return { maxDepth: this.limits.maxDepth[lane], maxLag: this.limits.maxLag };
  }

  /** Whether `lane` takes a new job right now. */
  decide(lane: Lane): AdmissionDecision {
    return decideAdmission(this.monitor.latest()?.lanes[lane], this.limitsOf(lane));
  }

  /**
   * Throws `429 overloaded` (with `Retry-After`) when `lane` does not take a new job. Call it
   * before anything is written, so a refused submit leaves no trace.
   */
  assertAdmits(lane: Lane): void {
    const decision = this.decide(lane);
    if (decision.admit) return;
    this.metrics.admissionRejections.inc({ lane });
    const { problem } = ProblemError.of(429, ErrorCodes.overloaded, 'Too Many Requests', overloadedDetail(lane, decision.breaches, decision.retryAfterSeconds), {
      lane,
      breaches: decision.breaches,
      retryAfterSeconds: decision.retryAfterSeconds,
    });
    throw new ProblemError(problem, { 'Retry-After': String(decision.retryAfterSeconds) });
  }

  /** `GET /v1/queues`: the latest figures of every lane and whether it admits. */
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
    };
  }
}

/** E.g. "lane 'fast' is overloaded: queue depth 12 has reached its limit of 10; retry in 3 s". */
function overloadedDetail(lane: Lane, breaches: LimitBreach[], retryAfterSeconds: number): string {
  const what = breaches.map((b) => `${b.limit === 'depth' ? 'queue depth' : 'consumer lag'} ${b.figure} has reached its limit of ${b.max}`);
  return `lane '${lane}' is overloaded: ${what.join(' and ')}; retry in ${retryAfterSeconds} s`;
}
