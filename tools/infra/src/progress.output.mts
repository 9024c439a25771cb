/**
 * Progress lines for humans. Everything goes to stderr so that
 * `status --json` keeps stdout machine-readable.
 */
const started = Date.now();

export function say(component: string, message: string): void {
  process.stderr.write(`[infra] ${component.padEnd(9)} ${message}\n`);
}

/** Seconds since `since` (default: CLI start), one decimal, for progress lines. */
export function elapsed(since: number = started): string {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}
