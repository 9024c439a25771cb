import type { Logger } from '@longhaul/telemetry';

/**
 * Runs `pass` every `intervalMs`, never two passes at once, until stopped. A pass that throws
 * (the database restarting) is logged and the loop carries on. When a pass reports it did a
 * full batch, the next one starts at once, so a backlog drains without waiting for the timer.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    /** Returns true when there may be more work right away. */
    private readonly pass: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  /** Starts the loop; the first pass runs after `firstDelayMs` (one interval unless said). */
  start(firstDelayMs = this.intervalMs): void {
    if (this.running) return;
    this.running = true;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.current = this.tick();
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let more = false;
    try {
      more = await this.pass();
    } catch (error) {
      this.logger.warn({ err: error, loop: this.name }, 'periodic pass failed; will retry');
    }
    this.schedule(more ? 0 : this.intervalMs);
  }
}
