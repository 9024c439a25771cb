import { sourceBlobKey as sourceKeyOf } from '@longhaul/storage';
import { Renditions, type JobOutputs, type JobSource } from '@longhaul/contracts';

/** The renditions a job asked for, in ladder order (all of them by default). */
export function requestedRenditions(outputs: JobOutputs): string[] {
  const wanted = new Set(outputs.renditions ?? Renditions);
  return Renditions.filter((r) => wanted.has(r));
}

/** Where a job's source is stored; the api writes it by the same rule (`@longhaul/storage`). */
export function sourceBlobKey(request: { jobId: string; source: JobSource }): string {
  return sourceKeyOf(request.jobId, request.source);
}

/** The folder of every transcode output of a job (ends with `/`). */
export function transcodePrefix(jobId: string): string {
  return `jobs/${jobId}/transcode/`;
}

/** The key of a file of a rendition, e.g. `segment_000.ts` → `jobs/<jobId>/transcode/720p/segment_000.ts`. */
export function renditionFileKey(jobId: string, rendition: string, file: string): string {
  return `${transcodePrefix(jobId)}${rendition}/${file}`;
}

/**
 * Storage keys of a job's transcode outputs: per rendition an MP4 (`<rendition>/video.mp4`) and
 * an HLS playlist (`<rendition>/index.m3u8`, its segments `segment_NNN.ts` beside it), and the
 * master playlist (`master.m3u8`), all under {@link transcodePrefix}. They depend only on job id
 * and rendition, so a rerun of the step (after a crash or a retry) overwrites its outputs and
 * never duplicates them, and the master's relative references (`720p/index.m3u8`) resolve.
 */
export function transcodeOutputKeys(jobId: string, renditions: string[]) {
  return {
    master: `${transcodePrefix(jobId)}master.m3u8`,
    renditions: renditions.map((name) => ({
      name,
      playlist: renditionFileKey(jobId, name, 'index.m3u8'),
      mp4: renditionFileKey(jobId, name, 'video.mp4'),
    })),
  };
}
