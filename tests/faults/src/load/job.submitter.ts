import { randomUUID } from 'node:crypto';
import { sleep, type SubmitAttempt, type SubmitRecord } from '@longhaul/testing';

/** Options of {@link JobSubmitter}. */
export interface JobSubmitterOptions {
  apiUrl: string;
  /** Sent as `Authorization: Bearer` with every submit. */
  apiKey: string;
  ratePerSecond: number;
  maxInFlight: number;
  /** One attempt's timeout; a hung request is retried like a refused one. @defaultValue 10000 */
  attemptTimeoutMs?: number;
  /** Stop retrying a submit after this long and record it unaccepted. @defaultValue 180000 */
  giveUpAfterMs?: number;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 2_000;

/** Connection errors, timeouts, 5xx and 429 may clear: the same request is sent again. */
function retryable(attempt: SubmitAttempt): boolean {
  return attempt.status === null || attempt.status >= 500 || attempt.status === 429 || attempt.status === 408;
}

/**
 * Submits jobs the way a careful client does: each under its own Idempotency-Key, and a submit
 * that meets an outage (no answer, 5xx) is sent again with the SAME key until it gets a 202, so a
 * request that did commit before its answer was lost comes back as the same job
 * (`Idempotent-Replayed: true`) instead of a second one. Every attempt is recorded.
 */
export class JobSubmitter {
  /** Every submit, load and probe, in the order they were started. */
  readonly records: SubmitRecord[] = [];
  /** Ticks skipped because `maxInFlight` submits were still retrying. */
  skippedTicks = 0;
  private readonly runId = randomUUID().slice(0, 8);
  private readonly inFlight = new Set<Promise<SubmitRecord>>();
  private loop: Promise<void> | null = null;
  private stopping = false;
  private loadCount = 0;

  constructor(private readonly options: JobSubmitterOptions) {}

  /** Load submits started so far. */
  get loadSubmitted(): number {
    return this.loadCount;
  }

  /** Starts the steady stream of load jobs; `body(i)` makes the i-th request. */
  start(body: (i: number) => Record<string, unknown>): void {
    if (this.loop) throw new Error('the submitter already runs');
    const interval = 1000 / this.options.ratePerSecond;
    this.loop = (async () => {
      // Paced against a fixed schedule, not a fixed sleep, so slow ticks do not lower the rate.
      let next = Date.now();
      while (!this.stopping) {
        if (this.inFlight.size < this.options.maxInFlight) {
          const i = this.loadCount++;
          const submit = this.submit(body(i), 'load');
          this.inFlight.add(submit);
          void submit.finally(() => this.inFlight.delete(submit));
        } else {
          this.skippedTicks += 1;
        }
        next += interval;
        await sleep(Math.max(0, next - Date.now()));
      }
    })();
  }

  /** Resolves once at least `count` load submits have been started. */
  async reach(count: number): Promise<void> {
    while (this.loadCount < count && !this.stopping) await sleep(100);
  }

  /** Stops the stream and waits for the submits in flight to be accepted or given up. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Submits one job under a fresh key, retrying through outages; resolves with its record. */
  async submit(body: Record<string, unknown>, kind: SubmitRecord['kind']): Promise<SubmitRecord> {
    const record: SubmitRecord = { key: `faults-${this.runId}-${kind}-${this.records.length}`, kind, attempts: [], jobId: null };
    this.records.push(record);
    const giveUpAt = Date.now() + (this.options.giveUpAfterMs ?? 180_000);
    let delay = FIRST_RETRY_MS;
    for (;;) {
      const attempt = await this.attempt(body, record.key);
      record.attempts.push(attempt);
      if (attempt.status === 202) {
        record.jobId = attempt.jobId ?? null;
        return record;
      }
      if (!retryable(attempt) || Date.now() > giveUpAt) return record;
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }

  private async attempt(body: Record<string, unknown>, key: string): Promise<SubmitAttempt> {
    const at = Date.now();
    try {
      const response = await fetch(`${this.options.apiUrl}/v1/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.attemptTimeoutMs ?? 10_000),
      });
      const text = await response.text();
      if (response.status !== 202) return { at, status: response.status, error: text.slice(0, 200) };
      const jobId = (JSON.parse(text) as { id?: string }).id;
      return { at, status: 202, jobId, replayed: response.headers.get('idempotent-replayed') === 'true' };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { at, status: null, error: cause ?? (error as Error).name ?? String(error) };
    }
  }
}
