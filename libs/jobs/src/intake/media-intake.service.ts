import { join } from 'node:path';
import type { JobSource } from '@longhaul/contracts';
import { MediaEmptyError } from '@longhaul/media';
import { isUuid } from '@longhaul/persistence';
import type { BlobStore } from '@longhaul/storage';
import type { MediaIntake, PreparedSource } from '../create-job/media-intake.port';
import { SourceUploadNotFoundError } from './intake.errors';
import type { MediaInspector } from './media.inspector';
import type { FetchedSource } from './source.fetcher';
import type { StagedSources } from './staged-source.repository';
import { urlSourceKey } from '@longhaul/storage';
import { withTempDir } from './temp-dir';
import type { UploadRecord, UploadRecords } from './upload.repository';
import { uploadMediaType } from './upload.policy';

/** What downloads a URL source (`SourceFetcher`, or a fake in tests). */
export interface SourceDownloader {
  fetch(url: string, destPath: string, options?: { signal?: AbortSignal }): Promise<FetchedSource>;
}

/** What {@link MediaIntakeService} works with. */
export interface MediaIntakeDeps {
  uploads: Pick<UploadRecords, 'use'>;
  blobStore: BlobStore;
  inspector: MediaInspector;
  fetcher: SourceDownloader;
  /** Where a fetched source is recorded before it is stored (`StagedSourceRepository`). */
  staging: StagedSources;
  /** Where downloads wait while they are probed. @defaultValue the OS temp folder */
  tempRoot?: string;
}

/**
 * Makes a job's input ready BEFORE the job's transaction (`CreateJobService` calls it), so a
 * refused input writes nothing:
 * - `{ uploadId }`: the upload must exist and be the tenant's (else 422 `upload_not_found`); it was probed when it
 *   was uploaded, so its blob key and probe are returned as they are;
 * - `{ url }`: downloaded by the `SourceFetcher` (public addresses only, limited size and time;
 *   422 `source_*`), judged and probed like an upload (422 `media_*`), then stored at
 *   `sources/<jobId>/source`, staged first (`StagedSources`) so a crash before the job commits
 *   leaves nothing behind for good. The temporary file is removed whatever happens.
 */
export class MediaIntakeService implements MediaIntake {
  constructor(private readonly deps: MediaIntakeDeps) {}

  async prepare(jobId: string, source: JobSource, tenantId: string, options: { signal?: AbortSignal } = {}): Promise<PreparedSource> {
    if ('uploadId' in source) {
      const upload = await this.ownUpload(source.uploadId, tenantId);
      return { sourceKey: upload.blobKey, media: upload.probe, ownedByJob: false };
    }
    return withTempDir(async (dir) => {
      const path = join(dir, 'source');
      const fetched = await this.deps.fetcher.fetch(source.url, path, { signal: options.signal });
      if (fetched.sizeBytes === 0) throw new MediaEmptyError();
      const media = await this.deps.inspector.inspect(path, options.signal);
      const sourceKey = urlSourceKey(jobId);
      // Committed before the blob exists: if the api dies before the job's transaction, the
      // staged row is what lets the blob purge find it (`BlobPurger`).
      await this.deps.staging.stage(jobId);
      // The server's type is kept only when it is one an upload could have (`video/*`, octet-stream).
      await this.deps.blobStore.putFile(sourceKey, path, { contentType: uploadMediaType(fetched.contentType ?? undefined) ?? undefined });
      return { sourceKey, media, ownedByJob: true };
    }, this.deps.tempRoot);
  }

  /**
   * The intake of runs that do not probe (`SOURCE_PROBE=false`): nothing is fetched or probed,
   * but a job naming an upload still gets only one of its own tenant's — the steps would read it.
   */
  withoutProbing(): MediaIntake {
    return {
      prepare: async (_jobId, source, tenantId) => {
        if ('uploadId' in source) await this.ownUpload(source.uploadId, tenantId);
        return null;
      },
      discard: async () => undefined,
    };
  }

  /**
   * The upload, when it exists and is `tenantId`'s, stamped as used now so retention keeps it; another
   * tenant's is as unknown as a missing one (422).
   */
  private async ownUpload(uploadId: string, tenantId: string): Promise<UploadRecord> {
    const upload = isUuid(uploadId) ? await this.deps.uploads.use(uploadId, tenantId) : null;
    if (!upload) throw new SourceUploadNotFoundError(uploadId);
    return upload;
  }

  async discard(prepared: PreparedSource): Promise<void> {
    if (prepared.ownedByJob) await this.deps.blobStore.delete(prepared.sourceKey);
  }
}
