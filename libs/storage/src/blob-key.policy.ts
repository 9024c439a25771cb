import { BlobKeyInvalidError } from './blob.errors';

/** S3's own limit on a key (in bytes; our keys are ASCII, so characters). */
export const MAX_KEY_LENGTH = 1024;
/** Most filesystems' limit on one name; the fs driver maps a segment to one. */
export const MAX_SEGMENT_LENGTH = 255;

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const PARTIAL_SEGMENT = /^[A-Za-z0-9._-]*$/;

/**
 * Refuses any key that is not a relative path of `[A-Za-z0-9._-]` segments joined by single `/`:
 * empty keys and segments, leading or trailing `/`, `.` and `..`, backslashes, NUL, spaces and
 * every other character. The fs driver relies on this to keep every key inside its root, and
 * on `~` never appearing in a key to name its temporary and sidecar files.
 *
 * @throws BlobKeyInvalidError (code `blob_key_invalid`)
 */
export function assertSafeKey(key: string): void {
  const reason = keyProblem(key);
  if (reason) throw new BlobKeyInvalidError(key, reason);
}

/** True when `assertSafeKey` accepts `key`. */
export function isSafeKey(key: string): boolean {
  return keyProblem(key) === undefined;
}

/**
 * A `list` prefix: empty, or safe segments followed by `/` and an optional partial segment
 * (`jobs/`, `jobs/42/out`). Matching is by plain string prefix, as in S3.
 *
 * @throws BlobKeyInvalidError (code `blob_key_invalid`)
 */
export function assertSafePrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new BlobKeyInvalidError(String(prefix), 'not a string');
  const cut = prefix.lastIndexOf('/');
  const directory = prefix.slice(0, Math.max(cut, 0));
  const partial = prefix.slice(cut + 1);
  const reason =
    (cut >= 0 ? keyProblem(directory) : undefined) ??
    (PARTIAL_SEGMENT.test(partial) ? undefined : 'characters other than A-Z a-z 0-9 . _ - /') ??
    (prefix.length > MAX_KEY_LENGTH ? `longer than ${MAX_KEY_LENGTH} characters` : undefined);
  if (reason) throw new BlobKeyInvalidError(prefix, reason);
}

/**
 * A folder to delete whole: safe segments followed by `/` (`jobs/42/`), never empty, so no call
 * can name the whole store.
 *
 * @throws BlobKeyInvalidError (code `blob_key_invalid`)
 */
export function assertSafeFolder(folder: string): void {
  if (typeof folder !== 'string' || !folder.endsWith('/')) throw new BlobKeyInvalidError(String(folder), 'not a folder ending in /');
  assertSafeKey(folder.slice(0, -1));
}

function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return 'not a string';
  if (key.length === 0) return 'empty';
  if (key.length > MAX_KEY_LENGTH) return `longer than ${MAX_KEY_LENGTH} characters`;
  if (key.startsWith('/')) return 'absolute (leading /)';
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty segment (// or trailing /)';
    if (segment === '.' || segment === '..') return `"${segment}" segment`;
    if (!SEGMENT.test(segment)) return 'characters other than A-Z a-z 0-9 . _ - /';
    if (segment.length > MAX_SEGMENT_LENGTH) return `segment longer than ${MAX_SEGMENT_LENGTH} characters`;
  }
  return undefined;
}
