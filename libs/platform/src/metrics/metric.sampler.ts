import type { Logger } from '@longhaul/telemetry';
import { PollingLoop } from '../polling.loop';

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
 * database or a broker: a {@link PollingLoop} whose passes are each bounded by `timeoutMs`, so
 * they never overlap and nothing is thrown out of the timer. A failing source is logged once when
 * it starts failing and once when it recovers, not at every pass.
 */
export class MetricSampler {
  private readonly loop: PollingLoop;
  private failing = false;

  constructor(private readonly options: MetricSamplerOptions) {
    this.loop = new PollingLoop(`${options.name} sampler`, options.intervalMs, async () => {
      await this.sampleOnce();
      return false;
    }, options.logger);
  }

  /** Starts sampling; the first pass runs at once. */
  start(): void {
    this.loop.start(0);
  }

  /** Stops sampling and waits for a pass in flight (bounded by its timeout). */
  stop(): Promise<void> {
    return this.loop.stop();
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
}
