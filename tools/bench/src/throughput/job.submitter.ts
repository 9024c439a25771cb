// One `POST /v1/jobs` at a time, stamped with the wall clock, over a keep-alive pool: the client
// of the paced benchmarks (relay lag through the api, end-to-end latency), which need each
// request's own send and answer times rather than autocannon's aggregate.

import { Pool } from 'undici';
import { wallNow } from './wall.clock';

/** How one submit went. */
export interface SubmitOutcome {
  status: number;
  /** From the 202's `Location: /v1/jobs/<id>`; null for any other answer. */
  jobId: string | null;
  /** Wall clock just before the request was handed to the pool. */
  sentAt: number;
  /** Wall clock when the answer's status and headers had arrived. */
  answeredAt: number;
  /** A 429's `Retry-After`, in ms. */
  retryAfterMs: number | null;
  /** A connection error or timeout (status is then 0). */
  error?: string;
}

/** An answer slower than this counts as an error. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Submits one fixed body, as many at once as the pool has connections. */
export class JobSubmitter {
  private readonly pool: Pool;

  constructor(
    apiUrl: string,
    private readonly apiKey: string,
    private readonly body: string,
    connections: number,
  ) {
    this.pool = new Pool(apiUrl, { connections, pipelining: 1, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
  }

  /** Never rejects: a failure is an outcome with status 0 and an `error`. */
  async submit(): Promise<SubmitOutcome> {
    const sentAt = wallNow();
    try {
      const response = await this.pool.request({
        path: '/v1/jobs',
        method: 'POST',
        headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
        body: this.body,
      });
      const answeredAt = wallNow();
      // The body (the job view, or a problem) is not needed, but must be read for the connection to be reused.
      await response.body.dump();
      const location = response.headers['location'];
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        jobId: response.statusCode === 202 && typeof location === 'string' ? jobIdOfLocation(location) : null,
        sentAt,
        answeredAt,
        retryAfterMs: typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null,
      };
    } catch (error) {
      return { status: 0, jobId: null, sentAt, answeredAt: wallNow(), retryAfterMs: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The job id at the end of a `Location: /v1/jobs/<id>` (absolute or relative), or null. */
export function jobIdOfLocation(location: string): string | null {
  return /\/v1\/jobs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(location)?.[1] ?? null;
}
