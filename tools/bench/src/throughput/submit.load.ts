import autocannon from 'autocannon';
import type { LoadRun } from './load-run';

/** Options of {@link driveSubmits}. */
export interface SubmitLoadOptions {
  /** The api's base URL, e.g. `http://127.0.0.1:17500`. */
  apiUrl: string;
  apiKey: string;
  /** The JSON body of every `POST /v1/jobs`. */
  body: string;
  connections: number;
  durationS: number;
  /** Ends the run early (its result still comes). */
  signal: AbortSignal;
}

/** A submit run, with the ids of the jobs it was told were accepted. */
export interface SubmitRun extends LoadRun {
  /** From the `Location` of every 202: each must be a row of `api.jobs`. */
  acceptedIds: string[];
  /** When each answer of `latenciesMs` arrived (`performance.now()`, ms), in the same order. */
  answeredAtMs: number[];
}

/** Seconds before an unanswered request counts as an error rather than a latency. */
const REQUEST_TIMEOUT_S = 10;

/**
 * `POST /v1/jobs` with `body` from `connections` keep-alive connections through autocannon's
 * programmatic API, each sending its next request once the last is answered, for `durationS`.
 * Latencies come from autocannon's per-response event, in ms with sub-millisecond precision,
 * rather than its histogram, which keeps whole milliseconds.
 */
export async function driveSubmits(options: SubmitLoadOptions): Promise<SubmitRun> {
  const latenciesMs: number[] = [];
  const answeredAtMs: number[] = [];
  const acceptedIds: string[] = [];
  const byStatus: Record<string, number> = {};
  let sent = 0;
  let answered = 0;
  const instance = autocannon({
    url: `${options.apiUrl}/v1/jobs`,
    method: 'POST',
    connections: options.connections,
    duration: options.durationS,
    timeout: REQUEST_TIMEOUT_S,
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: options.body,
    setupClient: (client) => {
      client.on('request', () => sent++);
      client.on('headers', ({ statusCode, headers }) => {
        if (statusCode !== 202) return;
        const id = jobIdFromHeaders(headers);
        if (id) acceptedIds.push(id);
      });
    },
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    answered++;
    byStatus[statusCode] = (byStatus[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) {
      latenciesMs.push(responseTime);
      answeredAtMs.push(performance.now());
    }
  });
  const stop = () => instance.stop();
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    const result = await instance;
    const ok = Object.entries(byStatus).reduce((sum, [status, count]) => (status.startsWith('2') ? sum + count : sum), 0);
    return {
      connections: options.connections,
      durationS: result.duration,
      ok,
      byStatus,
      latenciesMs,
      errors: result.errors,
      cutOff: Math.max(0, sent - answered - result.errors),
      acceptedIds,
      answeredAtMs,
    };
  } finally {
    options.signal.removeEventListener('abort', stop);
  }
}

/**
 * The job id of a 202's `Location: /v1/jobs/<id>`, from the parser's flat header list
 * (`[name, value, name, value, …]`, names in any case).
 */
export function jobIdFromHeaders(headers: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== 'location') continue;
    return /\/v1\/jobs\/([0-9a-f-]{36})$/i.exec(headers[i + 1]!)?.[1];
  }
  return undefined;
}
