/**
 * The `Content-Type` an upload is sent with, from the file's extension. The api treats it as a
 * claim and checks the bytes itself, so an unknown extension goes as `application/octet-stream`.
 */
import { extname } from 'node:path';

const VIDEO_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
  '.avi': 'video/x-msvideo',
  '.ts': 'video/mp2t',
  '.mts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.mpg': 'video/mpeg',
  '.mpeg': 'video/mpeg',
  '.flv': 'video/x-flv',
  '.3gp': 'video/3gpp',
  '.ogv': 'video/ogg',
  '.wmv': 'video/x-ms-wmv',
};

export function uploadContentType(path: string): string {
  return VIDEO_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * `Content-Disposition` naming the file: an ASCII `filename` for every server, and the exact
 * name as RFC 8187 `filename*` when it is not plain ASCII (header values must be bytes).
 */
export function uploadContentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc8187(fileName)}`;
}

/** Percent-encodes all but RFC 8187's attr-char (encodeURIComponent alone leaves `'()*` as they are). */
function rfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
