import type { Logger } from 'pino';

/** Options of {@link MetricSampler}. */
export interface MetricSamplerOptions {
  /** Names the sampler in logs, e.g. `consumer-lag`. */
  name: string;
  /** Time between the end of one pass and the start of the next. */
  intervalMs: number;
  /** Longest one pass may take; past it the pass counts as failed and `onFailure` runs. */
  timeoutMs: number;
  /** Reads the figures and sets the gauges. `signal` aborts once the pass has timed out. */
  sample: (signal: AbortSignal) => Promise<void>;
  /**
   * Runs after a pass failed or timed out, e.g. to drop gauges that would otherwise keep showing
   * figures that are no longer true.
   */
  onFailure?: () => void;
  logger: Logger;
}

/**
 * Keeps gauges fresh in the background, so a scrape only reads memory and never waits on a
 * database or a broker. Passes never overlap, each is bounded by `timeoutMs`, and nothing is
 * thrown out of the timer; a failing source is logged once when it starts failing and once when
 * it recovers, not at every pass.
 */
export class MetricSampler {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private current: Promise<boolean> | null = null;
  private failing = false;

  constructor(private readonly options: MetricSamplerOptions) {}

  /** Starts sampling; the first pass runs at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops sampling and waits for a pass in flight (bounded by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  /** One pass now; true when it succeeded. Never throws. */
  async sampleOnce(): Promise<boolean> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`${this.options.name} sample took longer than ${this.options.timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, this.options.timeoutMs);
      timer.unref();
    });
    const work = this.options.sample(controller.signal);
    work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
    try {
      await Promise.race([work, timeout]);
      if (this.failing) this.options.logger.info({ sampler: this.options.name }, 'metric source readable again');
      this.failing = false;
      return true;
    } catch (error) {
      if (!this.failing) this.options.logger.warn({ err: error, sampler: this.options.name }, 'metric source unreadable; its gauges are dropped until it answers');
      this.failing = true;
      try {
        this.options.onFailure?.();
      } catch {
        // Dropping gauges cannot fail in a way that matters more than the failure itself.
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.current = this.sampleOnce().finally(() => {
        this.current = null;
        this.schedule(this.options.intervalMs);
      });
    }, delayMs);
    // Sampling alone must never keep the process alive.
    this.timer.unref();
  }
}
