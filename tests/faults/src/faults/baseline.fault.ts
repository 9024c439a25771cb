import type { Fault, FaultEffect } from './fault.types';

/** The baseline: a probe with nothing broken, so each fault's time to recover can be read against it. */
export class BaselineFault implements Fault {
  readonly name = 'baseline (no fault)';
  readonly mustAcceptSubmits = false;
  readonly target = 'none';

  async run(): Promise<FaultEffect> {
    const now = Date.now();
    return { injectedAt: now, restoreIssuedAt: now, restoredAt: now, note: 'probe latency under load' };
  }
}
