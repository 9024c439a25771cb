import { sleep, startComponentAsync, stopComponentAsync, type StackComponent } from '@longhaul/testing';
import type { Fault, FaultEffect } from './fault.types';

/**
 * Stops one native stack component by PID, holds it down, and starts it again (the infra CLI
 * returns once it is healthy and the connector streams again). Kafka Connect down means the
 * outbox is not relayed; Kafka down means nothing is consumed or relayed; Postgres down means
 * nothing is accepted or recorded.
 */
export class ComponentOutageFault implements Fault {
  readonly name: string;
  readonly target = 'stack';
  private down = false;

  constructor(
    private readonly component: StackComponent,
    private readonly holdMs: number,
    readonly mustAcceptSubmits: boolean,
  ) {
    this.name = `stop ${component} for ${(holdMs / 1000).toFixed(0)} s, then start`;
  }

  async run(): Promise<FaultEffect> {
    const injectedAt = Date.now();
    this.down = true;
    await stopComponentAsync(this.component);
    const downFrom = Date.now();
    await sleep(this.holdMs);
    const restoreIssuedAt = Date.now();
    await startComponentAsync(this.component);
    this.down = false;
    return {
      injectedAt,
      restoreIssuedAt,
      restoredAt: Date.now(),
      downWindow: { label: `${this.component} stopped`, from: downFrom, to: restoreIssuedAt },
      note: `stop took ${((downFrom - injectedAt) / 1000).toFixed(1)} s`,
    };
  }

  /** Leaves the shared stack whole even when the run failed midway. */
  async restore(): Promise<void> {
    if (!this.down) return;
    await startComponentAsync(this.component);
    this.down = false;
  }
}
