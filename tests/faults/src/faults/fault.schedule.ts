import { sleep } from '@longhaul/testing';
import type { Fault, FaultContext, FaultEffect } from './fault.types';
import type { ProbeResult, RecoveryProbe } from './recovery.probe';

/** One fault as it happened. */
export interface ScheduledFault {
  fault: Fault;
  /** Null when the fault failed to run or was skipped. */
  effect: FaultEffect | null;
  /** Null when skipped. */
  probe: ProbeResult | null;
  /** Why the fault could not run as planned. */
  error?: string;
}

/**
 * Runs the faults one after another: inject, hold, clear, then a probe job until it completes,
 * then a quiet spell. A probe that never completes (the system did not recover) ends the
 * schedule: the later faults are skipped, and the run goes on to drain and judge what happened.
 */
export async function runFaultSchedule(faults: readonly Fault[], context: FaultContext, probe: RecoveryProbe): Promise<ScheduledFault[]> {
  const results: ScheduledFault[] = [];
  let stopReason: string | null = null;
  for (const fault of faults) {
    if (stopReason) {
      results.push({ fault, effect: null, probe: null, error: `skipped: ${stopReason}` });
      continue;
    }
    context.timeline.log(`fault: ${fault.name}`);
    const result: ScheduledFault = { fault, effect: null, probe: null };
    try {
      result.effect = await fault.run(context);
      context.timeline.log(`cleared: ${fault.name} (${result.effect.note})`);
    } catch (error) {
      result.error = (error as Error).message;
      context.timeline.log(`fault failed: ${fault.name}: ${result.error}; restoring`);
      await fault.restore?.(context).catch((restoreError: unknown) => {
        result.error += `; restore failed: ${(restoreError as Error).message}`;
      });
    }
    result.probe = await probe.measure();
    const took = result.probe.completedAt && result.effect ? ` in ${((result.probe.completedAt - result.effect.restoreIssuedAt) / 1000).toFixed(1)} s` : '';
    context.timeline.log(`probe ${result.probe.jobId ?? '(not accepted)'}: ${result.probe.outcome}${took}`);
    results.push(result);
    if (result.probe.outcome === 'timed_out' || result.probe.outcome === 'not_accepted') {
      stopReason = `the probe after "${fault.name}" ${result.probe.outcome.replace('_', ' ')}`;
    } else {
      await sleep(context.config.settleMs);
    }
  }
  return results;
}
