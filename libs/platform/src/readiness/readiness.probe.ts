import type { CheckResult, ReadinessCheck, ReadinessReport } from './readiness.check';

/** Options of {@link ReadinessProbe}. */
export interface ReadinessOptions {
  /** Longest one check may take; past it the check fails. @defaultValue {@link READINESS_TIMEOUT_MS} */
  timeoutMs?: number;
  /**
   * How long a check's result is reused: orchestrators and load balancers may probe every
   * instance several times a second, and the dependencies must not feel it.
   * @defaultValue {@link READINESS_CACHE_MS}
   */
  cacheMs?: number;
  /** @defaultValue Date.now */
  now?: () => number;
}

/** @see ReadinessOptions.timeoutMs */
export const READINESS_TIMEOUT_MS = 2_000;
/** @see ReadinessOptions.cacheMs */
export const READINESS_CACHE_MS = 2_000;

/**
 * Runs the readiness checks for `GET /readyz`: all at once, each bounded by `timeoutMs`, each
 * result reused for `cacheMs`, and one run shared by every probe that arrives while it is in
 * flight. So a probe answers within about `timeoutMs` whatever the dependencies do, and the
 * dependencies see at most one check per `cacheMs`.
 */
export class ReadinessProbe {
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private readonly latest = new Map<string, { result: CheckResult; at: number }>();
  private readonly running = new Map<string, Promise<CheckResult>>();

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    options: ReadinessOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
    this.cacheMs = options.cacheMs ?? READINESS_CACHE_MS;
    this.now = options.now ?? Date.now;
  }

  async report(): Promise<ReadinessReport> {
    const results = await Promise.all(this.checks.map(async (check) => [check.name, await this.result(check)] as const));
    const checks = Object.fromEntries(results);
    return { status: results.every(([, r]) => r.status === 'ok') ? 'ready' : 'not_ready', checks };
  }

  private result(check: ReadinessCheck): Promise<CheckResult> {
    const cached = this.latest.get(check.name);
    if (cached && this.now() - cached.at < this.cacheMs) return Promise.resolve(cached.result);
    let running = this.running.get(check.name);
    if (!running) {
      running = this.run(check).then((result) => {
        this.latest.set(check.name, { result, at: this.now() });
        this.running.delete(check.name);
        return result;
      });
      this.running.set(check.name, running);
    }
    return running;
  }

  private async run(check: ReadinessCheck): Promise<CheckResult> {
    const startedAt = this.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer within ${this.timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, this.timeoutMs);
      timer.unref();
    });
    const work = Promise.resolve().then(() => check.run(controller.signal));
    work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
    const done = (status: CheckResult['status'], error?: string): CheckResult => ({
      status,
      ...(error === undefined ? {} : { error }),
      durationMs: Math.round(this.now() - startedAt),
      checkedAt: new Date(startedAt).toISOString(),
    });
    try {
      await Promise.race([work, timeout]);
      return done('ok');
    } catch (error) {
      return done('failed', error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }
}
