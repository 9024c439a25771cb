/**
 * HTTP to the Longhaul api: JSON in and out, errors turned into `ApiError` (problem+json) or
 * `CliError('api_unreachable')`, and api paths resolved against the base URL, which may carry a
 * path prefix when the api sits behind a proxy.
 */
import { ApiError, CliError, isAbort } from './cli.errors.mts';
import type { Problem } from './cli.errors.mts';

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiRequest {
  /** Sent as `application/json`. */
  json?: unknown;
  /** A raw body (a stream, for uploads): sent as it is read, never buffered whole. */
  body?: ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | number | undefined>;
}

export interface ApiClientOptions {
  /** Aborts every request (Ctrl-C). */
  signal?: AbortSignal;
  /** Sent as `Authorization: Bearer <key>` on every request to the api. */
  apiKey?: string;
}

export class ApiClient {
  /** Origin plus path prefix, without a trailing slash. */
  readonly base: string;
  private readonly signal: AbortSignal | undefined;
  /** A true private field: the key never shows when the client is inspected or serialised. */
  readonly #apiKey: string | undefined;

  constructor(baseUrl: URL, options: ApiClientOptions = {}) {
    this.base = `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}`;
    this.signal = options.signal;
    this.#apiKey = options.apiKey;
  }

  /** `{ authorization: 'Bearer <key>' }`, or nothing without a key: for requests made outside {@link request} (the event stream). */
  authHeaders(): Record<string, string> {
    return this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {};
  }

  /** An absolute URL for an api path (`/v1/jobs/…`) or a link the api returned; absolute URLs pass through. */
  resolve(pathOrUrl: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return pathOrUrl;
    return `${this.base}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
  }

  get<T>(path: string, query?: ApiRequest['query']): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, request);
  }

  patch<T>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, request);
  }

  delete<T>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path);
  }

  async request<T>(method: string, path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.resolve(path));
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    // The key goes to the api only, never to another origin a link might name (a presigned URL).
    const ours = url.origin === new URL(this.base).origin;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers, ...(ours ? this.authHeaders() : {}) };
    let body: RequestInit['body'] = request.body;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const response = await send(url, {
      method,
      headers,
      body,
      signal: this.signal,
      // `redirect: 'error'`: to be able to follow a redirect, undici's fetch tees a stream body
      // and keeps the unread branch until the request ends, which holds the whole upload in
      // memory (nodejs/undici#4058). A stream cannot be sent twice anyway.
      ...(request.body ? { duplex: 'half' as const, redirect: 'error' as const } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw problemError(response, text);
    try {
      return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
    } catch {
      throw new CliError('bad_response', `${method} ${url.pathname} answered ${response.status} with a body that is not JSON`);
    }
  }
}

/** `fetch`, with a failure to connect turned into a `CliError` naming the address. */
export async function send(url: URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new CliError('api_unreachable', `cannot reach the api at ${url.origin}: ${networkReason(error)}`);
  }
}

/** The `ApiError` for a non-2xx answer whose body text was read. */
export function problemError(response: Response, text: string): ApiError {
  let problem: Problem | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as Problem;
  } catch {
    // Not JSON (a proxy's HTML page, say): described from the status line below.
  }
  problem ??= { title: response.statusText, detail: text.trim().slice(0, 200) || response.statusText || undefined };
  const retryAfter = Number(response.headers.get('retry-after'));
  if (problem.retryAfterSeconds === undefined && Number.isFinite(retryAfter) && retryAfter > 0) {
    problem.retryAfterSeconds = retryAfter;
  }
  return new ApiError(response.status, { status: response.status, ...problem });
}

/**
 * undici hides the socket error in `cause`: a system error's code says it best (`ECONNREFUSED`),
 * undici's own codes (`UND_ERR_SOCKET`) less well than their message (`other side closed`).
 */
export function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (cause?.code && /^E[A-Z]+$/.test(cause.code)) return cause.code;
  return cause?.message || cause?.code || error.message;
}
