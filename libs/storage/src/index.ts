export * from './blob-store';
export * from './blob.errors';
export * from './blob-key.policy';
export * from './byte-range.policy';
export * from './content-type.policy';
export * from './fs.blob-store';
// Types only: the S3 driver (and the AWS SDK under it) loads when a service opens it.
export type { S3BlobStore, S3BlobStoreOptions } from './s3.blob-store';
export * from './storage.config';
export * from './blob-store.factory';
export * from './blob-store.token';
export * from './source-keys.policy';
