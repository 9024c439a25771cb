/**
 * Rewrites the URIs of an HLS playlist (every line that is not a tag or blank) with `resolve`,
 * which gets each URI as written (relative to the playlist) and returns what the client should
 * fetch instead. Used when the blobs sit behind presigned URLs: a relative `segment_001.ts`
 * cannot carry a signature of its own, so each one is replaced by its presigned URL, and each
 * variant playlist by the api's URL for it (which rewrites that playlist in turn).
 */
export async function rewritePlaylist(text: string, resolve: (uri: string) => Promise<string>): Promise<string> {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    out.push(trimmed === '' || trimmed.startsWith('#') ? line : await resolve(trimmed));
  }
  return out.join('\n');
}

/**
 * Rewrites the image references of a WebVTT sprite index (`sprite.jpg#xywh=…` cue payloads) with
 * `resolve`, keeping the fragment.
 */
export async function rewriteSpriteVtt(text: string, resolve: (uri: string) => Promise<string>): Promise<string> {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^([^\s#][^\s#]*\.(?:jpg|jpeg|png|webp))(#xywh=\d+,\d+,\d+,\d+)$/.exec(line.trim());
    out.push(match ? `${await resolve(match[1]!)}${match[2]}` : line);
  }
  return out.join('\n');
}
