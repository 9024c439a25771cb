import { ACCEPTED_DEMUXERS } from '@longhaul/media';

/**
 * Which media files ffprobe may open. ffprobe picks a demuxer from the bytes, and some demuxers
 * open OTHER files or addresses named inside the file: an HLS playlist reads its segments, an
 * ffconcat list its entries, a DASH manifest its representations, an SDP file listens on the
 * network. `-protocol_whitelist file` does not stop that (the entries are files), so an uploaded
 * playlist naming `/etc/passwd` would make the api read local files.
 *
 * The rule, therefore, is an allow list decided from the bytes BEFORE ffprobe runs:
 * - a file is probed only when its first bytes are the signature of a self-contained container
 *   ({@link sniffContainer}); anything else is refused unread: known reference formats with
 *   `media_format_refused`, unknown bytes (text, images, archives) with `media_unreadable`;
 * - ffprobe itself may only use `ACCEPTED_DEMUXERS` (`probeMedia` passes `-format_whitelist`);
 * - after probing, the demuxer ffprobe chose is checked against that list once more
 *   ({@link isAcceptedFormat}), should the signatures and ffprobe ever disagree.
 * Audio-only containers are allowed through so that the answer names the real problem
 * (`media_no_video`).
 *
 * Pure: the caller reads the first {@link SNIFF_BYTES} bytes.
 */

/** How many leading bytes {@link sniffContainer} looks at. */
export const SNIFF_BYTES = 4096;

/** What the first bytes of a file say. */
export type ContainerSniff =
  | { verdict: 'container'; family: string }
  | { verdict: 'refused'; format: string }
  | { verdict: 'unknown' };

/**
 * True when ffprobe's `format_name` (e.g. `mov,mp4,m4a,3gp,3g2,mj2`) names a demuxer of
 * `ACCEPTED_DEMUXERS` (`@longhaul/media`: the same list ffprobe and ffmpeg are held to with
 * `-format_whitelist`).
 */
export function isAcceptedFormat(formatName: string): boolean {
  return formatName.split(',').some((name) => ACCEPTED_DEMUXERS.includes(name.trim()));
}

/** ISO BMFF (MP4, MOV, 3GP, M4A) top-level boxes a file may start with. */
const ISO_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** Text formats that make a demuxer open what they name. Matched on the trimmed, lower-cased start. */
const REFERENCE_FORMATS: Array<[RegExp, string]> = [
  [/^#extm3u/, 'an HLS/M3U playlist'],
  [/^ffconcat/, 'an ffconcat list'],
  [/^(<\?xml[^>]*>\s*)?<mpd[\s>]/, 'a DASH manifest'],
  [/^(<\?xml|<smil|<asx|<playlist)/, 'an XML playlist'],
  [/^v=0\r?\n/, 'an SDP session description'],
  [/^\[playlist\]/, 'a PLS playlist'],
  [/^#extinf/, 'an M3U playlist'],
];

/** Markers that ffmpeg demuxers of reference formats look for anywhere in the leading text. */
const SCANNED_MARKERS: Array<[string, string]> = [
  ['<mpd', 'a DASH manifest'],
  ['<compositionplaylist', 'an IMF composition playlist'],
];

/** Judges a file by its first bytes (see the module comment for the rule). */
export function sniffContainer(head: Uint8Array): ContainerSniff {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  // The DASH and IMF demuxers search their marker anywhere before the first NUL byte, so a file
  // with a valid signature could still be taken for a manifest: refuse that too.
  const untilNul = bytes.subarray(0, bytes.includes(0) ? bytes.indexOf(0) : bytes.length).toString('latin1').toLowerCase();
  for (const [marker, format] of SCANNED_MARKERS) if (untilNul.includes(marker)) return { verdict: 'refused', format };
  const family = containerFamily(bytes);
  if (family) return { verdict: 'container', family };
  const text = bytes.subarray(0, 512).toString('latin1').replace(/^(\u00ef\u00bb\u00bf|\ufeff)/, '').trimStart().toLowerCase();
  for (const [pattern, format] of REFERENCE_FORMATS) if (pattern.test(text)) return { verdict: 'refused', format };
  return { verdict: 'unknown' };
}

function containerFamily(b: Buffer): string | null {
  const ascii = (start: number, end: number) => b.subarray(start, end).toString('latin1');
  const starts = (...sig: number[]) => sig.every((byte, i) => b[i] === byte);
  if (b.length >= 8 && ISO_BOXES.has(ascii(4, 8))) return 'iso-bmff';
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) return 'matroska';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'avi';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (isTransportStream(b, 0, 188) || isTransportStream(b, 4, 192)) return 'mpegts';
  if (starts(0x00, 0x00, 0x01, 0xba)) return 'mpeg-ps';
  if (starts(0x00, 0x00, 0x01, 0xb3)) return 'mpeg-video';
  if (starts(0x00, 0x00, 0x00, 0x01) || starts(0x00, 0x00, 0x01)) return 'annex-b';
  if (ascii(0, 3) === 'FLV' && b[3] === 0x01) return 'flv';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (starts(0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11)) return 'asf';
  if (starts(0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01)) return 'mxf';
  if (ascii(0, 4) === 'DKIF') return 'ivf';
  if (ascii(0, 9) === 'YUV4MPEG2') return 'y4m';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 3) === 'ID3') return 'mpeg-audio';
  // MPEG audio (MP3) and ADTS (AAC) frames start with an 11- or 12-bit sync word.
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) return 'mpeg-audio';
  return null;
}

/** MPEG-TS: a 0x47 sync byte every `packet` bytes from `offset` (192 for M2TS), three times when the file is long enough. */
function isTransportStream(b: Buffer, offset: number, packet: number): boolean {
  if (b.length < offset + 1 || b[offset] !== 0x47) return false;
  const checks = [offset + packet, offset + 2 * packet].filter((at) => at < b.length);
  return checks.length > 0 && checks.every((at) => b[at] === 0x47);
}
