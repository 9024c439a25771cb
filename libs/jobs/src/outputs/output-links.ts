import type { DownloadView } from '@longhaul/contracts';
import type { BlobStore } from '@longhaul/storage';
import { jobFilePath, needsRewrite, outputFilesOf } from './job-outputs';

/**
 * Turns a job's output files into download links. With object storage each file gets a
 * presigned, expiring URL — except playlists and sprite indexes, whose relative references
 * cannot carry signatures: those are served by the api, which rewrites their references. With
 * the filesystem driver every file is served by the api (with range support).
 */
export class OutputLinks {
  constructor(
    private readonly store: BlobStore | null,
    private readonly ttlSeconds: number,
  ) {}

  async link(jobId: string, stepResults: Record<string, Record<string, unknown>>): Promise<DownloadView[]> {
    if (!this.store) return [];
    const downloads: DownloadView[] = [];
    for (const file of outputFilesOf(jobId, stepResults)) {
      const base = { kind: file.kind, ...(file.rendition ? { rendition: file.rendition } : {}) };
      const signed = needsRewrite(file.key) ? null : await this.store.signedUrl(file.key, this.ttlSeconds);
      downloads.push(
        signed
          ? { ...base, url: signed, expiresAt: new Date(Date.now() + this.ttlSeconds * 1000).toISOString() }
          : { ...base, url: jobFilePath(jobId, file.key) },
      );
    }
    return downloads;
  }
}
