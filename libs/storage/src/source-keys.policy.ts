/**
 * Storage keys of job inputs. An upload lives at `uploads/<uploadId>/source`; a URL source,
 * downloaded for one job, at `sources/<jobId>/source`, so a resubmitted URL is fetched per job
 * and a rerun overwrites. Ids are UUIDs, so every key passes `assertSafeKey`.
 */
export function uploadSourceKey(uploadId: string): string {
  return `uploads/${uploadId}/source`;
}

/** See {@link uploadSourceKey}. */
export function urlSourceKey(jobId: string): string {
  return `sources/${jobId}/source`;
}

/** The blob a job's steps read: its upload, or the source the api fetched for it. */
export function sourceBlobKey(jobId: string, source: { uploadId: string } | { url: string }): string {
  return 'uploadId' in source ? uploadSourceKey(source.uploadId) : urlSourceKey(jobId);
}
