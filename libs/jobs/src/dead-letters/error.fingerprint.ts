import { createHash } from 'node:crypto';

/**
 * A short hash that groups failures of the same kind: step, error code and the message with
 * what varies between occurrences (ids, numbers, hex) masked out. Two jobs that timed out after
 * different durations share a fingerprint; a timeout and a decode error do not.
 */
export function errorFingerprint(step: string, code: string, message: string): string {
  const shape = message
    .toLowerCase()
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\b[0-9a-f]{12,}\b/g, '<hex>')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
  return createHash('sha256').update(`${step}\n${code}\n${shape}`).digest('hex').slice(0, 16);
}
