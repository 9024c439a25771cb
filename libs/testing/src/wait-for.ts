/** Options of {@link waitFor}. */
export interface WaitOptions {
  /** @defaultValue 30000 */
  timeoutMs?: number;
  /** @defaultValue 200 */
  intervalMs?: number;
  /** Says what was awaited when the wait times out. */
  description?: string;
}

/**
 * Polls `probe` until it returns a value other than undefined/null/false, and returns it.
 * Times out with the last error or value, so a failing test says what it was waiting for.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      last = value;
    } catch (error) {
      // An error marked `final` (e.g. a job that ended in the wrong state) cannot get better.
      if ((error as { final?: boolean }).final) throw error;
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${options.description ?? 'condition'} (last: ${detail})`);
    }
    await sleep(options.intervalMs ?? 200);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
