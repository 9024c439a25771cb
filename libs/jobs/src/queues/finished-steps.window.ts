/** A lane's steps finished within one whole second (Unix seconds, the database's clock). */
export interface FinishedSecond {
  lane: string;
  second: number;
  finished: number;
}

/** Options of {@link FinishedStepsWindow}. */
export interface FinishedStepsWindowOptions {
  /** The window counted, in seconds. */
  windowSeconds: number;
  /**
   * Seconds already counted that each read counts again: a step's `finished_at` is the start of
   * the transaction that finished it, which commits a moment later, so the newest seconds can
   * still gain steps after a read.
   */
  settleSeconds: number;
}

/**
 * Steps finished per lane over a sliding window, kept as per-second counts between the queue
 * monitor's reads, so each read counts only the seconds since the last one (plus the settle
 * margin) instead of the whole window: at 200 finished steps a second, a sample every second
 * counted 12 000 rows of a 60 s window each time, and now counts about 1 200.
 *
 * Use: `readFrom()` tells from when to read; the read's `now`, its actual start and its rows go
 * to `record`; `finished(lane, now)` is the window's count.
 */
export class FinishedStepsWindow {
  /** second → lane → count, for the seconds of the window. */
  private readonly seconds = new Map<number, Map<string, number>>();
  /** The `now` of the last read recorded; null before the first. */
  private lastReadAt: number | null = null;

  constructor(private readonly options: FinishedStepsWindowOptions) {}

  /**
   * The earliest `finished_at` (Unix seconds) the next read must cover: the last read's `now`
   * less the margin; null before the first read, which covers the whole window and the margin.
   * The read itself never goes back further than that ({@link FinishedStepsWindowOptions}).
   */
  readFrom(): number | null {
    return this.lastReadAt === null ? null : this.lastReadAt - this.options.settleSeconds;
  }

  /**
   * Takes what a read at `now` of the steps finished since `since` (both Unix seconds) found. The
   * second it covers only in part is ignored (the counts of earlier reads stand for it); every
   * later second's count is replaced by the read's, so steps committed after an earlier read are
   * counted, and none twice.
   */
  record(now: number, since: number, rows: readonly FinishedSecond[]): void {
    const firstWhole = Math.floor(since) + 1;
    for (const second of [...this.seconds.keys()]) if (second >= firstWhole) this.seconds.delete(second);
    for (const row of rows) {
      if (row.second < firstWhole) continue;
      let lanes = this.seconds.get(row.second);
      if (!lanes) this.seconds.set(row.second, (lanes = new Map()));
      lanes.set(row.lane, (lanes.get(row.lane) ?? 0) + row.finished);
    }
    const oldest = this.oldestCounted(now);
    for (const second of [...this.seconds.keys()]) if (second < oldest) this.seconds.delete(second);
    this.lastReadAt = now;
  }

  /** Steps of `lane` finished in the window ending at `now`: its last `windowSeconds` seconds, the current one included. */
  finished(lane: string, now: number): number {
    const oldest = this.oldestCounted(now);
    let total = 0;
    for (const [second, lanes] of this.seconds) if (second >= oldest) total += lanes.get(lane) ?? 0;
    return total;
  }

  private oldestCounted(now: number): number {
    return Math.floor(now) - this.options.windowSeconds + 1;
  }
}
