import { Renditions, type JobOutputs } from '@longhaul/contracts';

/** The renditions a job asked for, in ladder order (all of them by default). */
export function requestedRenditions(outputs: JobOutputs): string[] {
  const wanted = new Set(outputs.renditions ?? Renditions);
  return Renditions.filter((r) => wanted.has(r));
}

/**
 * Storage keys of a job's transcode outputs. They depend only on job id and rendition, so a
 * rerun of the step (after a crash or a retry) overwrites its outputs and never duplicates them.
 */
export function transcodeOutputKeys(jobId: string, renditions: string[]) {
  return {
    master: `jobs/${jobId}/hls/master.m3u8`,
    renditions: renditions.map((name) => ({
      name,
      playlist: `jobs/${jobId}/hls/${name}/index.m3u8`,
      mp4: `jobs/${jobId}/mp4/${name}.mp4`,
    })),
  };
}
