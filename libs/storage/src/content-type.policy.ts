/** What a blob is served as when neither the writer nor its extension says. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * The media types Longhaul reads and writes. A short list on purpose: a blob whose extension is
 * not here is `application/octet-stream` unless its writer names a type.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  ts: 'video/mp2t',
  m3u8: 'application/vnd.apple.mpegurl',
  mpd: 'application/dash+xml',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  vtt: 'text/vtt',
  txt: 'text/plain',
  json: 'application/json',
};

/** The type a key's extension implies (case-insensitive), or `application/octet-stream`. */
export function contentTypeForKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_CONTENT_TYPE;
}
