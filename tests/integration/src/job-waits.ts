import type { JobView } from '@longhaul/contracts';
import { waitFor, type ApiClient } from '@longhaul/testing';

/** Polls a job until `accept` returns true for it. */
export function waitForJob(api: ApiClient, id: string, accept: (job: JobView) => boolean, description: string, timeoutMs = 60_000): Promise<JobView> {
  return waitFor(
    async () => {
      const { body } = await api.getJob(id);
      return accept(body) ? body : null;
    },
    { timeoutMs, description: `job ${id}: ${description}` },
  );
}

/** A job whose simulated steps behave as `directives` say (`sim.*` metadata, read only in the simulated step mode). */
export function simulatedJob(directives: Record<string, string>): Record<string, unknown> {
  return {
    type: 'video.process',
    source: { url: 'https://media.example.com/simulated.mp4' },
    outputs: { renditions: ['360p'], thumbnails: { count: 1 } },
    metadata: directives,
  };
}

/**
 * The transitions a plain simulated job's feed tells after its first entry (`job:pending`, the
 * accept), as `step:from>to` and `job:status`, in order: versions 1 to 7.
 */
export const SIMULATED_JOB_TRANSITIONS: readonly string[] = [
  'transcode:queued>running',
  'job:running',
  'transcode:running>succeeded',
  'thumbnail:pending>queued',
  'thumbnail:queued>running',
  'thumbnail:running>succeeded',
  'job:completed',
];
