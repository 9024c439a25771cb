import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MediaEmptyError } from '@longhaul/media';
import { isUuid, uuidv7 } from '@longhaul/persistence';
import type { BlobStore } from '@longhaul/storage';
import { UploadIncompleteError, UploadMediaTypeError, UploadNotFoundError, UploadTooLargeError } from './intake.errors';
import { ByteLimitExceededError, writeLimitedFile } from './limited-file.writer';
import type { MediaInspector } from './media.inspector';
import { uploadSourceKey } from '@longhaul/storage';
import { withTempDir } from './temp-dir';
import type { UploadRecord, UploadRecords } from './upload.repository';
import { announcedLength, uploadFilename, uploadMediaType } from './upload.policy';
import type { UploadView } from './upload.view';

/** An upload as it arrives: the raw body and the headers that describe it. */
export interface IncomingUpload {
  /** The tenant whose key sends it. */
  tenantId: string;
  /** The request body, read as a stream (never buffered). It is not destroyed here. */
  body: Readable;
  contentType?: string;
  contentLength?: string;
  contentDisposition?: string;
  /** Aborted when the client goes away: stops probing. */
  signal?: AbortSignal;
}

/** What {@link UploadService} works with. */
export interface UploadServiceDeps {
  uploads: UploadRecords;
  blobStore: BlobStore;
  inspector: MediaInspector;
  /** `UPLOAD_MAX_BYTES`. */
  maxBytes: number;
  /** Where bodies wait while they are probed. @defaultValue the OS temp folder */
  tempRoot?: string;
  /** @defaultValue uuidv7 */
  newId?: () => string;
}

/**
 * `POST /v1/uploads`: a video streamed to a temporary file while its bytes are counted, checked
 * and probed ({@link MediaInspector}), then stored at `uploads/<id>/source` and recorded in
 * `api.uploads`. Nothing is stored unless all of that succeeds, and the temporary file is
 * removed whatever happens. Refusals: 415 (Content-Type), 413 (announced or counted size over
 * `maxBytes`), 422 `media_empty` and the other media_* codes.
 */
export class UploadService {
  constructor(private readonly deps: UploadServiceDeps) {}

  async receive(upload: IncomingUpload): Promise<UploadView> {
    const { maxBytes, blobStore, inspector, uploads } = this.deps;
    const contentType = uploadMediaType(upload.contentType);
    if (!contentType) throw new UploadMediaTypeError(upload.contentType);
    const announced = announcedLength(upload.contentLength);
    if (announced !== null && announced > maxBytes) throw new UploadTooLargeError(maxBytes);
    return withTempDir(async (dir) => {
      const path = join(dir, 'source');
      const sizeBytes = await this.spool(upload, path);
      if (sizeBytes === 0) throw new MediaEmptyError();
      const media = await inspector.inspect(path, upload.signal);
      const id = (this.deps.newId ?? uuidv7)();
      const blobKey = uploadSourceKey(id);
      await blobStore.putFile(blobKey, path, { contentType });
      try {
        const record = await uploads.insert({ id, tenantId: upload.tenantId, blobKey, sizeBytes, contentType, filename: uploadFilename(upload.contentDisposition), probe: media });
        return toUploadView(record);
      } catch (error) {
        // No row, no blob: an upload nobody can name would never be cleaned up.
        await blobStore.delete(blobKey).catch(() => undefined);
        throw error;
      }
    }, this.deps.tempRoot);
  }

  /** The upload with this id; 404 `not_found` when there is none, it is another tenant's, or the id is no UUID. */
  async get(id: string, tenantId: string): Promise<UploadView> {
    const record = isUuid(id) ? await this.deps.uploads.find(id) : null;
    if (!record || record.tenantId !== tenantId) throw new UploadNotFoundError(id);
    return toUploadView(record);
  }

  private async spool(upload: IncomingUpload, path: string): Promise<number> {
    try {
      return await writeLimitedFile(upload.body, path, { maxBytes: this.deps.maxBytes, signal: upload.signal });
    } catch (error) {
      if (error instanceof ByteLimitExceededError) throw new UploadTooLargeError(this.deps.maxBytes);
      if (upload.body.readableAborted || upload.signal?.aborted) throw new UploadIncompleteError();
      throw error;
    }
  }
}

/** The API's view of an upload row. */
export function toUploadView(record: UploadRecord): UploadView {
  return {
    id: record.id,
    sizeBytes: record.sizeBytes,
    contentType: record.contentType,
    filename: record.filename,
    media: record.probe,
    createdAt: record.createdAt.toISOString(),
  };
}
