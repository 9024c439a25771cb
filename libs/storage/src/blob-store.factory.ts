import type { BlobStore } from './blob-store';
import { FileSystemBlobStore } from './fs.blob-store';
import { S3BlobStore } from './s3.blob-store';
import { storageConfigFrom, type StorageConfig, type StorageEnv } from './storage.config';

/**
 * The blob store a service runs with, ready to use: the fs root exists, the bucket exists.
 * Call once at start, so a wrong endpoint or credentials stop the service there.
 */
export async function createBlobStore(config: StorageConfig | StorageEnv): Promise<BlobStore> {
  const resolved = 'STORAGE_DRIVER' in config ? storageConfigFrom(config) : config;
  if (resolved.driver === 'fs') {
    const store = new FileSystemBlobStore(resolved.fs);
    await store.ensureRoot();
    return store;
  }
  const store = new S3BlobStore(resolved.s3);
  await store.ensureBucket();
  return store;
}
