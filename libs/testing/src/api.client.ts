import type { JobStatus, JobView } from '@longhaul/contracts';
import { waitFor } from './wait-for';

/** A raw HTTP answer: status, headers and parsed body. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A thin HTTP client of the Longhaul API for tests and tools. With an API key it sends
 * `Authorization: Bearer <key>` on every request, unless the request names its own
 * `authorization` header, so a test can send a bad one; `withKey(undefined)` sends none.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    /** `lh_<prefix>_<secret>`; without one the client sends no `Authorization`. */
    readonly apiKey?: string,
  ) {}

  /** The same api as another key, or with `undefined` as no key at all. */
  withKey(apiKey: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  /** `{ authorization: 'Bearer <key>' }`, or nothing without a key: for a raw `fetch` of the api. */
  authHeaders(): Record<string, string> {
    return this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
  }

  /** `headers` with this client's `Authorization` added, unless they carry one of their own. */
  withAuth(headers: Record<string, string> = {}): Record<string, string> {
    const own = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    return own ? headers : { ...this.authHeaders(), ...headers };
  }

  async request<T = unknown>(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, { method, body: init.body, headers: this.withAuth(init.headers) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }

  submitJob(body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<JobView>> {
    return this.request<JobView>('POST', '/v1/jobs', {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  getJob(id: string): Promise<ApiResponse<JobView>> {
    return this.request<JobView>('GET', `/v1/jobs/${id}`);
  }

  /** Polls the job until it reaches `status` (fails fast if it ends in another terminal state). */
  async waitForStatus(id: string, status: JobStatus, timeoutMs = 60_000): Promise<JobView> {
    return waitFor(
      async () => {
        const { body } = await this.getJob(id);
        if (body.status === status) return body;
        if (['completed', 'failed', 'cancelled'].includes(body.status)) {
          throw Object.assign(new Error(`job ${id} ended ${body.status}, expected ${status}: ${JSON.stringify(body.error)}`), { final: true });
        }
        return null;
      },
      { timeoutMs, description: `job ${id} to be ${status}` },
    );
  }
}

/** A valid `video.process` request for tests. */
export function sampleJobRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'video.process',
    source: { url: 'https://media.example.com/clip.mp4' },
    outputs: { renditions: ['720p', '360p'], thumbnails: { count: 3 } },
    ...overrides,
  };
}
