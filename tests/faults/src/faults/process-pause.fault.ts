import { sleep } from '@longhaul/testing';
import type { Fault, FaultContext, FaultEffect } from './fault.types';
import { catchStepInFlight } from './step-in-flight.probe';

/**
 * SIGSTOP of one worker instance while it runs a step, for longer than its lease, then SIGCONT.
 * Frozen, it cannot heartbeat, so its leases run out and another instance takes the items over;
 * woken, it still believes it holds them, and whatever it finishes must be fenced off.
 */
export class ProcessPauseFault implements Fault {
  readonly name: string;
  readonly mustAcceptSubmits = false;
  readonly target = 'process';

  constructor(
    private readonly instance: string,
    private readonly schema: 'transcoder' | 'thumbnailer',
    private readonly pauseMs: number,
  ) {
    this.name = `SIGSTOP ${instance} ${(pauseMs / 1000).toFixed(1)} s`;
  }

  async run(context: FaultContext): Promise<FaultEffect> {
    const service = context.fleet.get(this.instance);
    const { pid, held } = await catchStepInFlight(context.repository, this.schema, service, context.config.midStepWaitMs);
    const injectedAt = Date.now();
    service.signal('SIGSTOP');
    await sleep(this.pauseMs);
    const restoreIssuedAt = Date.now();
    service.signal('SIGCONT');
    const note = held > 0 ? `pid ${pid} held ${held} running item(s)` : `pid ${pid} ran no step within ${context.config.midStepWaitMs / 1000} s; paused anyway`;
    return { injectedAt, restoreIssuedAt, restoredAt: restoreIssuedAt, note };
  }

  async restore(context: FaultContext): Promise<void> {
    const service = context.fleet.get(this.instance);
    if (service.running) service.signal('SIGCONT');
  }
}
