/** Largest upload (and URL source) accepted. @defaultValue 2 GiB (`UPLOAD_MAX_BYTES`) */
export const DEFAULT_UPLOAD_MAX_BYTES = 2 * 1024 ** 3;

/** Longest file name kept from `Content-Disposition`. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * The media type of an upload's `Content-Type` (lower case, without parameters) when it is one
 * an upload may have — `video/*` or `application/octet-stream` — else null. The type is a
 * claim, not a check: the bytes are judged by their signature and ffprobe.
 */
export function uploadMediaType(header: string | undefined): string | null {
  if (!header) return null;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/octet-stream') return mediaType;
  return /^video\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(mediaType) ? mediaType : null;
}

/**
 * The file name a client gave in `Content-Disposition` (`attachment; filename="clip.mp4"`, or
 * RFC 8187 `filename*=UTF-8''cl%C3%ADp.mp4`, which wins), reduced to a display name: the last
 * path segment, without control characters, at most {@link MAX_FILENAME_LENGTH} characters.
 * It is only shown back; it never names a file or a blob. Null when absent or empty.
 */
export function uploadFilename(contentDisposition: string | undefined): string | null {
  if (!contentDisposition) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(contentDisposition);
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentDisposition);
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]!);
    } catch {
      name = undefined;
    }
  }
  name ??= plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : undefined;
  if (name === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const cleaned = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_FILENAME_LENGTH);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? null : cleaned;
}

/** The body length a request announces, or null without a valid `Content-Length`. */
export function announcedLength(header: string | undefined): number | null {
  if (header === undefined || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim());
}
