/**
 * Counts pino JSON log lines whose `msg` is exactly `msg`, e.g. `duplicate event suppressed`.
 * Lines that are not JSON (a stack trace printed before the logger started) are skipped. Pure.
 */
export function countLogMessages(text: string, msg: string): number {
  let count = 0;
  for (const line of text.split('\n')) {
    // Cheap filter first: most lines are other messages, and JSON.parse is the costly part.
    if (!line.includes(msg)) continue;
    try {
      if ((JSON.parse(line) as { msg?: unknown }).msg === msg) count += 1;
    } catch {
      // not a JSON line
    }
  }
  return count;
}
