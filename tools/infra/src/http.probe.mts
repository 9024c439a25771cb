/**
 * One HTTP GET for a health check. Failing to connect rejects, as fetch does; the callers
 * (waitUntilHealthy, checkHealth) count a rejection as not healthy.
 */

/** Every probe gives up after this long; a healthy server on loopback answers in milliseconds. */
const PROBE_TIMEOUT_MS = 2_000;

export function probe(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
}

/** Whether `url` answers with a 2xx status. */
export async function answersOk(url: string): Promise<boolean> {
  return (await probe(url)).ok;
}
