import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A download grant: a capability to read one job's output files until a moment, signed by the
 * api. It sits in the PATH of a link (`/v1/files/<grant>/hls/master.m3u8`), not in its query, so
 * the relative references inside a playlist or sprite index (`720p/index.m3u8`, `segment_001.ts`)
 * resolve to links that carry it too — the way a presigned object-storage URL works, but for
 * files the api serves. This is what lets `<img>`, `<video>`, hls.js and plain download links
 * fetch a job's files without an API key, while nobody can list or guess other jobs' files.
 *
 * Format: `g1.<job id, 32 hex>.<expiry, unix seconds, base 36>.<HMAC-SHA256, first 128 bits, base64url>`.
 */
const GRANT = /^g1\.([0-9a-f]{32})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/;

/**
 * Expiries are rounded up to this step, so the links of a job stay the same for a while: a page
 * that refreshes its view every few seconds keeps its player's and images' URLs (and caches).
 */
export const GRANT_EXPIRY_STEP_S = 300;

function mac(key: string, body: string): string {
  return createHmac('sha256', key).update(`longhaul-download-grant:${body}`).digest().subarray(0, 16).toString('base64url');
}

function compactId(jobId: string): string {
  return jobId.replace(/-/g, '').toLowerCase();
}

function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A grant for `jobId` valid for at least `ttlSeconds` from `nowMs`. */
export function signDownloadGrant(key: string, jobId: string, ttlSeconds: number, nowMs: number = Date.now()): { grant: string; expiresAt: Date } {
  const expiry = Math.ceil((nowMs / 1000 + ttlSeconds) / GRANT_EXPIRY_STEP_S) * GRANT_EXPIRY_STEP_S;
  const body = `${compactId(jobId)}.${expiry.toString(36)}`;
  return { grant: `g1.${body}.${mac(key, body)}`, expiresAt: new Date(expiry * 1000) };
}

/** The job a grant is for, when it is genuine and unexpired; `null` otherwise. */
export function verifyDownloadGrant(key: string, grant: string, nowMs: number = Date.now()): string | null {
  const match = GRANT.exec(grant);
  if (!match) return null;
  const [, id, expiry, signature] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(mac(key, `${id}.${expiry}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (parseInt(expiry, 36) * 1000 <= nowMs) return null;
  return uuidOf(id);
}

/** The api path of a job file (`jobs/<id>/<path>`) under a grant. */
export function grantedFilePath(grant: string, jobId: string, key: string): string {
  return `/v1/files/${grant}/${key.slice(`jobs/${jobId}/`.length)}`;
}
