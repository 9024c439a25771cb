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

/**
 * The blob a job's steps read: its upload, or the source the api fetched for it. The api accepts
 * an upload's id in any case, as a UUID, but stored the upload under its id as generated (lower
 * case), so the key is made from the id in lower case.
 */
export function sourceBlobKey(jobId: string, source: { uploadId: string } | { url: string }): string {
  return 'uploadId' in source ? uploadSourceKey(source.uploadId.toLowerCase()) : urlSourceKey(jobId);
}

/**
 * The folders that hold every blob made for one job: its outputs (`jobs/<jobId>/`, the workers'
 * output keys) and the source the api fetched for it. An upload is not among them: it has its
 * own id and may feed several jobs.
 */
export function jobBlobFolders(jobId: string): string[] {
  return [`jobs/${jobId}/`, `sources/${jobId}/`];
}

/** The folder that holds an upload's blob (`uploads/<uploadId>/`), deleted when retention deletes the upload. */
export function uploadBlobFolder(uploadId: string): string {
  return `uploads/${uploadId}/`;
}
