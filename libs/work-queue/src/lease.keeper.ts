import type { LeaseVerdict } from './run-outcome.policy';

/** Options of {@link LeaseKeeper}. */
export interface LeaseKeeperOptions {
  /** Time between lease renewals. */
  heartbeatMs: number;
  /** Time between progress reports, each sent with a renewal; `null` never reports. */
  progressMs: number | null;
  /**
   * Renews the lease in one transaction and, when `withProgress`, reports progress in the same
   * one, so a report is only ever sent while the lease is held.
   */
  renew: (withProgress: boolean) => Promise<LeaseVerdict>;
  /** Called once when a renewal finds the lease gone (cancelled or taken over); renewals stop. */
  onRevoked: (verdict: Exclude<LeaseVerdict, 'held'>) => void;
  /** A renewal failed (database unreachable): the keeper tries again at the next beat. */
  onError: (error: unknown) => void;
}

/**
 * Keeps one running item's lease alive and paces its progress reports. Renewals run one at a
 * time on a single timer that wakes for whichever is due first, the next heartbeat or the next
 * progress report, so the two cadences stay independent and never overlap on the database.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private nextHeartbeatAt = 0;
  private nextProgressAt = Number.POSITIVE_INFINITY;

  constructor(private readonly options: LeaseKeeperOptions) {}

  start(now: number = Date.now()): void {
    this.nextHeartbeatAt = now + this.options.heartbeatMs;
    if (this.options.progressMs !== null) this.nextProgressAt = now + this.options.progressMs;
    this.arm(now);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(now: number): void {
    if (this.stopped) return;
    const wakeAt = Math.min(this.nextHeartbeatAt, this.nextProgressAt);
    this.timer = setTimeout(() => void this.beat(), Math.max(0, wakeAt - now));
  }

  private async beat(): Promise<void> {
    const startedAt = Date.now();
    const withProgress = startedAt >= this.nextProgressAt;
    // Both deadlines move before the renewal: a failed renewal skips one report rather than
    // retrying it on every beat.
    this.nextHeartbeatAt = startedAt + this.options.heartbeatMs;
    if (withProgress) this.nextProgressAt = startedAt + this.options.progressMs!;
    try {
      const verdict = await this.options.renew(withProgress);
      if (this.stopped) return;
      if (verdict !== 'held') {
        this.stop();
        this.options.onRevoked(verdict);
        return;
      }
    } catch (error) {
      if (this.stopped) return;
      this.options.onError(error);
    }
    this.arm(Date.now());
  }
}
