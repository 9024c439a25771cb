import type { BlobStore, StorageConfig, StorageEnv } from '@longhaul/storage';
import type { ProbeMedia } from './media.inspector';
import type { HostResolver } from '@longhaul/egress';

/** How URL sources are downloaded. */
export interface SourceFetchOptions {
  /** Time allowed for a whole download, redirects included (`SOURCE_FETCH_TIMEOUT_MS`). @defaultValue 120000 */
  timeoutMs?: number;
  /** Redirects followed, each target checked again (`SOURCE_MAX_REDIRECTS`). @defaultValue 5 */
  maxRedirects?: number;
  /**
   * Also fetch from loopback, RFC 1918, unique-local and CGNAT addresses
   * (`SOURCE_ALLOW_PRIVATE_ADDRESSES`): tests and local development only. Link-local (cloud
   * metadata), multicast and unspecified addresses stay refused. @defaultValue false
   */
  allowPrivateAddresses?: boolean;
  /** Replaces DNS (tests). @defaultValue the system resolver */
  resolve?: HostResolver;
}

/** Options of `IntakeModule.forRoot`. */
export interface IntakeModuleOptions {
  /**
   * The blob store uploads and fetched sources go to: a ready instance, or the storage config
   * (`StorageConfig`, or the validated `STORAGE_*` environment) to build one at start with
   * `createBlobStore`. The module provides it as `BLOB_STORE` either way.
   */
  blobStore: BlobStore | StorageConfig | StorageEnv;
  /** Largest upload and URL source, in bytes (`UPLOAD_MAX_BYTES`). @defaultValue 2147483648 (2 GiB) */
  uploadMaxBytes?: number;
  /** @defaultValue every field's default */
  fetch?: SourceFetchOptions;
  /**
   * Look at job sources at submit (`SOURCE_PROBE`). When false, `MEDIA_INTAKE` prepares nothing
   * (jobs carry no source key or media); uploads are still checked and stored. @defaultValue true
   */
  prepareSources?: boolean;
  /** The ffprobe binary every upload and source is probed with (`FFPROBE_PATH`). @defaultValue `ffprobe`, found on `PATH` */
  ffprobePath?: string;
  /** Time ffprobe gets per file. @defaultValue 30000 */
  probeTimeoutMs?: number;
  /** Where bodies wait while they are checked. @defaultValue the OS temp folder */
  tempDir?: string;
  /** Replaces `probeMedia` (tests). @defaultValue `probeMedia` of `@longhaul/media` */
  probe?: ProbeMedia;
}
