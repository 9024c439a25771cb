import type { DownloadView } from '@longhaul/contracts';
import type { BlobStore } from '@longhaul/storage';
import { grantedFilePath, signDownloadGrant } from './download-grant';
import { needsRewrite, outputFilesOf } from './job-outputs';

/**
 * Turns a job's output files into download links. With object storage each file gets a
 * presigned, expiring URL — except playlists and sprite indexes, whose relative references
 * cannot carry signatures: those are served by the api, which rewrites their references. With
 * the filesystem driver every file is served by the api (with range support). Api-served links
 * carry a download grant in their path (see `download-grant.ts`), so they need no API key.
 */
export class OutputLinks {
  constructor(
    private readonly store: BlobStore | null,
    private readonly ttlSeconds: number,
    /** Signs the download grants of api-served links. */
    private readonly signingKey: string,
  ) {}

  async link(jobId: string, stepResults: Record<string, Record<string, unknown>>): Promise<DownloadView[]> {
    if (!this.store) return [];
    const downloads: DownloadView[] = [];
    const { grant, expiresAt } = signDownloadGrant(this.signingKey, jobId, this.ttlSeconds);
    for (const file of outputFilesOf(jobId, stepResults)) {
      const base = { kind: file.kind, ...(file.rendition ? { rendition: file.rendition } : {}) };
      const signed = needsRewrite(file.key) ? null : await this.store.signedUrl(file.key, this.ttlSeconds);
      downloads.push(
        signed
          ? { ...base, url: signed, expiresAt: new Date(Date.now() + this.ttlSeconds * 1000).toISOString() }
          : { ...base, url: grantedFilePath(grant, jobId, file.key), expiresAt: expiresAt.toISOString() },
      );
    }
    return downloads;
  }
}
