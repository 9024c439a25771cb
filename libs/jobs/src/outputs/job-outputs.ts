/** What kind of file an output is. */
export type OutputKind = 'hls_master' | 'hls_playlist' | 'mp4' | 'poster' | 'thumbnail' | 'sprite' | 'sprite_vtt';

/** One file a finished job produced. */
export interface OutputFile {
  kind: OutputKind;
  key: string;
  rendition?: string;
}

interface TranscodeResultShape {
  master?: unknown;
  renditions?: Array<{ name?: unknown; mp4?: unknown; playlist?: unknown }>;
}

interface ThumbnailResultShape {
  poster?: unknown;
  thumbnails?: unknown[];
  sprite?: { image?: unknown; vtt?: unknown };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * The files in a job's result (`{ transcode, thumbnail }`, each step's result by name), in a
 * stable order. Only keys under the job's own prefix are listed: a result can never point a
 * client at another job's blobs.
 */
export function outputFilesOf(jobId: string, result: Record<string, unknown> | null): OutputFile[] {
  if (!result) return [];
  const files: OutputFile[] = [];
  const add = (kind: OutputKind, key: unknown, rendition?: unknown) => {
    const k = str(key);
    if (k && k.startsWith(`jobs/${jobId}/`)) files.push({ kind, key: k, ...(str(rendition) ? { rendition: str(rendition)! } : {}) });
  };
  // Placeholder and simulated steps report the keys a real run would write, but write nothing.
  const real = (step: unknown) => (step && typeof step === 'object' && !('placeholder' in step) && !('simulated' in step) ? step : {});
  const transcode = real(result['transcode']) as TranscodeResultShape;
  add('hls_master', transcode.master);
  for (const r of transcode.renditions ?? []) {
    add('mp4', r.mp4, r.name);
    add('hls_playlist', r.playlist, r.name);
  }
  const thumbnail = real(result['thumbnail']) as ThumbnailResultShape;
  add('poster', thumbnail.poster);
  for (const t of thumbnail.thumbnails ?? []) add('thumbnail', t);
  add('sprite', thumbnail.sprite?.image);
  add('sprite_vtt', thumbnail.sprite?.vtt);
  return files;
}

/** The api path that serves (or redirects to) a blob of a job: `/v1/jobs/<id>/files/<path under the job>`. */
export function jobFilePath(jobId: string, key: string): string {
  return `/v1/jobs/${jobId}/files/${key.slice(`jobs/${jobId}/`.length)}`;
}

/** Whether clients need the api to rewrite a file's references before presigned URLs work. */
export function needsRewrite(key: string): boolean {
  return key.endsWith('.m3u8') || key.endsWith('.vtt');
}
