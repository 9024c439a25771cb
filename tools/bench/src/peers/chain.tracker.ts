// Which chains of one phase have started and finished, and how long each took: stage 1's enqueue
// call to the end of stage 3's handler.

/** The chains of one phase of a run. */
export class ChainTracker {
  private readonly startedAt = new Map<number, number>();
  private readonly latencies: number[] = [];
  private lastFinishAt = 0;
  private duplicates = 0;
  private waiter: { count: number; resolve: () => void } | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Records chain `n`'s start; call just before stage 1's enqueue. */
  begin(n: number): void {
    this.startedAt.set(n, this.now());
  }

  /** Records chain `n`'s end (stage 3's handler); a second finish of one chain (a redelivery) is counted apart. */
  finish(n: number): void {
    const began = this.startedAt.get(n);
    if (began === undefined) {
      this.duplicates++;
      return;
    }
    this.startedAt.delete(n);
    const at = this.now();
    this.latencies.push(at - began);
    this.lastFinishAt = Math.max(this.lastFinishAt, at);
    if (this.waiter && this.latencies.length >= this.waiter.count) this.waiter.resolve();
  }

  get finished(): number {
    return this.latencies.length;
  }

  /** Chains begun and not finished. */
  get pending(): number {
    return this.startedAt.size;
  }

  /** Finishes of a chain that was not (or no longer) pending: a job run twice. */
  get repeated(): number {
    return this.duplicates;
  }

  /** When the last chain finished (the tracker's clock), 0 before any. */
  get lastFinishedAt(): number {
    return this.lastFinishAt;
  }

  /** Latency (ms) of each finished chain, in finishing order. */
  latenciesMs(): readonly number[] {
    return this.latencies;
  }

  /** Resolves true once `count` chains have finished, false after `timeoutMs` or on abort. */
  async whenFinished(count: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.latencies.length >= count) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<boolean>((resolve) => {
        this.waiter = { count, resolve: () => resolve(true) };
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      this.waiter = null;
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }
}
