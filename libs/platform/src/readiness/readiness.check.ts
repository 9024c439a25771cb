/** One dependency `GET /readyz` checks. */
export interface ReadinessCheck {
  /** The key in the answer's `checks`: `postgres`, `kafka`, `relay`. */
  name: string;
  /** Resolves when the dependency does its part; rejects saying why not. Stop when `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
}

/** The outcome of one check, as `GET /readyz` shows it. */
export interface CheckResult {
  status: 'ok' | 'failed';
  /** Why it failed. */
  error?: string;
  /** How long the check took, in ms. */
  durationMs: number;
  /** When it ran (results are reused for a moment, see `ReadinessOptions.cacheMs`). */
  checkedAt: string;
}

/** The answer of `GET /readyz`: 200 when `ready`, else 503. */
export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckResult>;
}
