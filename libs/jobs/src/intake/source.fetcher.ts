import { LonghaulError } from '@longhaul/contracts';
import { request, type Dispatcher } from 'undici';
import { createGuardedAgent, type HostResolver } from '@longhaul/egress';
import { SourceAddressForbiddenError, SourceInvalidSchemeError, SourceTooLargeError, SourceUnreachableError } from './intake.errors';
import { ByteLimitExceededError, writeLimitedFile } from './limited-file.writer';

/** Redirects followed per source. @defaultValue 5 (`SOURCE_MAX_REDIRECTS`) */
export const DEFAULT_SOURCE_MAX_REDIRECTS = 5;
/** Time allowed for a whole download, redirects included. @defaultValue 120000 (`SOURCE_FETCH_TIMEOUT_MS`) */
export const DEFAULT_SOURCE_FETCH_TIMEOUT_MS = 120_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Longhaul-SourceFetcher/1';

/** Options of {@link SourceFetcher}. */
export interface SourceFetcherOptions {
  /** Largest body accepted (the upload limit, `UPLOAD_MAX_BYTES`). */
  maxBytes: number;
  /** @defaultValue {@link DEFAULT_SOURCE_MAX_REDIRECTS} */
  maxRedirects?: number;
  /** @defaultValue {@link DEFAULT_SOURCE_FETCH_TIMEOUT_MS} */
  timeoutMs?: number;
  /**
   * Fetch from loopback, private, unique-local and CGNAT addresses too (`SOURCE_ALLOW_PRIVATE_ADDRESSES`):
   * for tests and local development only. @defaultValue false
   */
  allowPrivateAddresses?: boolean;
  /** Replaces DNS (tests). @defaultValue the system resolver */
  resolve?: HostResolver;
}

/** What a download produced. */
export interface FetchedSource {
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  sizeBytes: number;
  /** The server's Content-Type, if it sent one (informational: the bytes are probed anyway). */
  contentType: string | null;
}

/**
 * Downloads a job's source URL to a local file, for probing and then the blob store; the URL is
 * never handed to ffmpeg. http and https only; every connection goes through
 * {@link createGuardedAgent}, so no private address is reached, whatever DNS says and whichever
 * redirect leads there. Redirects are followed by hand (each target's scheme checked again), at
 * most `maxRedirects`; the whole download has `timeoutMs`, and the body `maxBytes`.
 *
 * Errors (all `LonghaulError`s, answered 422 at submit): `source_invalid_scheme`,
 * `source_address_forbidden`, `source_too_large`, `source_unreachable` (connection failure, an
 * HTTP error status — named in the message and as `sourceStatus` —, too many redirects, the
 * timeout). A caller's own abort is passed through as its reason.
 */
export class SourceFetcher {
  private readonly agent: Dispatcher;
  private readonly maxRedirects: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: SourceFetcherOptions) {
    this.agent = createGuardedAgent({
      allowPrivate: options.allowPrivateAddresses ?? false,
      resolve: options.resolve,
      refuse: (host, address, kind) => new SourceAddressForbiddenError(host, address, kind),
    });
    this.maxRedirects = options.maxRedirects ?? DEFAULT_SOURCE_MAX_REDIRECTS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SOURCE_FETCH_TIMEOUT_MS;
  }

  /** Downloads `url` into a new file at `destPath` (which must not exist). */
  async fetch(url: string, destPath: string, options: { signal?: AbortSignal } = {}): Promise<FetchedSource> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let current = httpUrl(url);
    for (let redirects = 0; ; redirects++) {
      const response = await this.get(current, signal, options.signal);
      const status = response.statusCode;
      if (REDIRECT_STATUSES.has(status)) {
        await discard(response);
        const location = header(response.headers['location']);
        if (!location) throw new SourceUnreachableError(url, `HTTP ${status} redirect without a Location`, false, status);
        if (redirects >= this.maxRedirects) throw new SourceUnreachableError(url, `more than ${this.maxRedirects} redirects`, false, status);
        current = httpUrl(new URL(location, current).href);
        continue;
      }
      if (status < 200 || status > 299) {
        await discard(response);
        throw new SourceUnreachableError(url, `the server answered HTTP ${status}`, status >= 500 || status === 429, status);
      }
      const announced = Number(header(response.headers['content-length']) ?? Number.NaN);
      if (announced > this.options.maxBytes) {
        drop(response);
        throw new SourceTooLargeError(url, this.options.maxBytes);
      }
      try {
        const sizeBytes = await writeLimitedFile(response.body, destPath, { maxBytes: this.options.maxBytes, signal });
        return { finalUrl: current.href, sizeBytes, contentType: header(response.headers['content-type']) ?? null };
      } catch (error) {
        drop(response);
        if (error instanceof ByteLimitExceededError) throw new SourceTooLargeError(url, this.options.maxBytes);
        throw this.translate(error, url, deadline, options.signal);
      }
    }
  }

  /** Closes the connections kept alive for later downloads. */
  close(): Promise<void> {
    return this.agent.close();
  }

  private async get(url: URL, signal: AbortSignal, callerSignal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
    try {
      return await request(url, {
        dispatcher: this.agent,
        method: 'GET',
        signal,
        headers: { 'user-agent': USER_AGENT, accept: '*/*' },
      });
    } catch (error) {
      throw this.translate(error, url.href, signal, callerSignal);
    }
  }

  private translate(error: unknown, url: string, signal: AbortSignal, callerSignal: AbortSignal | undefined): unknown {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (error instanceof LonghaulError) return error;
    if (signal.aborted) return new SourceUnreachableError(url, `the download did not finish within ${this.timeoutMs} ms`, true);
    const cause = error as { code?: string; message?: string };
    return new SourceUnreachableError(url, `${cause.code ?? 'error'}: ${cause.message ?? String(error)}`, true);
  }
}

/** The URL, if it is http or https. */
function httpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceInvalidSchemeError(url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SourceInvalidSchemeError(url);
  return parsed;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Aborts a body mid-way (undici reports the abort as an error event, which is expected here). */
function drop(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

/** Drops a body we do not want, reading at most a little of it so the connection can be reused. */
async function discard(response: Dispatcher.ResponseData): Promise<void> {
  await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}
