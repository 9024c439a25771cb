import type { KafkaProbe, ServiceFleet, TimeWindow } from '@longhaul/testing';
import type { FaultRunRepository } from '../evidence/fault-run.repository';
import type { FaultRunConfig } from '../fault-run.config';
import type { RunTimeline } from '../run.timeline';

/** What a fault may use. */
export interface FaultContext {
  config: FaultRunConfig;
  fleet: ServiceFleet;
  repository: FaultRunRepository;
  kafka: KafkaProbe;
  timeline: RunTimeline;
}

/** What a fault did. Times are epoch ms. */
export interface FaultEffect {
  /** The fault took effect (kill sent, process stopped, component stop issued). */
  injectedAt: number;
  /** The restore was issued (restart, SIGCONT, component start). */
  restoreIssuedAt: number;
  /** The restore finished (instance ready, component healthy). */
  restoredAt: number;
  /** When the target was certainly down: from its stop returning to its start being issued. */
  downWindow?: TimeWindow;
  /** Malformed messages written, for the report. */
  injectedMessages?: number;
  note: string;
}

/** One fault of the schedule: it injects itself, holds, and clears itself. */
export interface Fault {
  /** e.g. `kill -9 transcoder-1`; names the fault in the timeline and the report. */
  readonly name: string;
  /**
   * Submits made while this fault's target is down must still be answered 202 at once: true for
   * the relay and Kafka, which are off the request path.
   */
  readonly mustAcceptSubmits: boolean;
  /**
   * What it hits: one of the run's own processes, the shared native stack, or a topic. Only a
   * `stack` fault must be undone whatever happens, so the stack is whole for whoever comes next.
   */
  readonly target: 'process' | 'stack' | 'topic' | 'none';
  run(context: FaultContext): Promise<FaultEffect>;
  /** Puts the target back if `run` failed between injecting and clearing. */
  restore?(context: FaultContext): Promise<void>;
}
