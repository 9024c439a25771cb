import type { JobSource, MediaInfoView } from '@longhaul/contracts';

/** What media intake established about a job's input before the job is written. */
export interface PreparedSource {
  /** The blob the job's steps read. */
  sourceKey: string;
  media: MediaInfoView;
  /** Whether the blob was written for this job (a fetched URL), so a refused submit removes it. */
  ownedByJob: boolean;
}

/**
 * Makes a job's input ready before the job is accepted: an upload is looked up, a URL is
 * downloaded into the blob store; either is probed, and anything that is not a video is refused
 * (a `LonghaulError` the api answers with 4xx). Null when probing is switched off
 * (`SOURCE_PROBE=false`, for runs whose steps never read the input, such as the simulated mode).
 */
export interface MediaIntake {
  /** `tenantId`: whose job it is; an upload must be that tenant's. */
  prepare(jobId: string, source: JobSource, tenantId: string): Promise<PreparedSource | null>;
  /** Removes what `prepare` wrote for a job that was then not accepted (best effort). */
  discard(prepared: PreparedSource): Promise<void>;
}

export const MEDIA_INTAKE = Symbol('longhaul.mediaIntake');

/** The intake of runs that never read their inputs: nothing is fetched or probed. */
export const NO_MEDIA_INTAKE: MediaIntake = { prepare: async () => null, discard: async () => undefined };
