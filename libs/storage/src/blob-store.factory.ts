import type { BlobStore } from './blob-store';
import { FileSystemBlobStore } from './fs.blob-store';
import type { S3BlobStore, S3BlobStoreOptions } from './s3.blob-store';
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
  const store = openS3BlobStore(resolved.s3);
  await store.ensureBucket();
  return store;
}

/**
 * The S3 driver, loaded on first use rather than imported: the AWS SDK is about 20 MiB of heap
 * that a service on the filesystem store would carry for nothing.
 */
export function openS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  const driver = require('./s3.blob-store') as typeof import('./s3.blob-store');
  return new driver.S3BlobStore(options);
}
