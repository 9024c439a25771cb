import { startWithRetry } from '@longhaul/testing';
import type { Fault, FaultContext, FaultEffect } from './fault.types';
import { catchStepInFlight } from './step-in-flight.probe';

/**
 * `kill -9` of one worker instance while it runs a step, then a restart. Its in-flight items
 * keep their leases until they run out; another instance must take them over, and the killed
 * run's result must never be applied.
 */
export class ProcessKillFault implements Fault {
  readonly name: string;
  readonly mustAcceptSubmits = false;
  readonly target = 'process';

  constructor(
    private readonly instance: string,
    private readonly schema: 'transcoder' | 'thumbnailer',
  ) {
    this.name = `kill -9 ${instance} mid-step`;
  }

  async run(context: FaultContext): Promise<FaultEffect> {
    const service = context.fleet.get(this.instance);
    const { pid, held } = await catchStepInFlight(context.repository, this.schema, service, context.config.midStepWaitMs);
    const injectedAt = Date.now();
    await service.kill();
    const restoreIssuedAt = Date.now();
    await startWithRetry(service);
    const note = held > 0 ? `pid ${pid} held ${held} running item(s)` : `pid ${pid} ran no step within ${context.config.midStepWaitMs / 1000} s; killed anyway`;
    return { injectedAt, restoreIssuedAt, restoredAt: Date.now(), note };
  }

  async restore(context: FaultContext): Promise<void> {
    const service = context.fleet.get(this.instance);
    if (!service.running) await startWithRetry(service);
  }
}
