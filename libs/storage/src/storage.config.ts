import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { z } from 'zod';
import { envFlag } from '@longhaul/config';

import type { FileSystemBlobStoreOptions } from './fs.blob-store';
import type { S3BlobStoreOptions } from './s3.blob-store';

/**
 * Where a service keeps blobs. Defaults match `npm run infra:up`: files under the stack's
 * cache folder, or, with `STORAGE_DRIVER=s3`, the stack's SeaweedFS S3 API and its identity
 * (`infra/s3/s3.identities.json`).
 */
export const StorageEnvSchema = z.object({
  /** `fs` (files under STORAGE_FS_ROOT) or `s3` (one bucket). @defaultValue fs */
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  /** Root folder of the fs driver; a leading `~` is the home folder. @defaultValue $LONGHAUL_HOME/blobs, else ~/.cache/longhaul/blobs */
  STORAGE_FS_ROOT: z.string().min(1).optional(),
  /** The native stack's cache folder (as tools/infra reads it); only used for the default STORAGE_FS_ROOT. */
  LONGHAUL_HOME: z.string().min(1).optional(),
  /** @defaultValue http://127.0.0.1:8333 */
  S3_ENDPOINT: z.url().default('http://127.0.0.1:8333'),
  /** @defaultValue us-east-1 */
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Created at start when missing. @defaultValue longhaul */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z 0-9 . -)')
    .default('longhaul'),
  /** @defaultValue longhaul */
  S3_ACCESS_KEY_ID: z.string().min(1).default('longhaul'),
  /** @defaultValue longhaul-secret */
  S3_SECRET_ACCESS_KEY: z.string().min(1).default('longhaul-secret'),
  /** Path-style URLs (`endpoint/bucket/key`), as servers addressed by IP need. @defaultValue true */
  S3_FORCE_PATH_STYLE: envFlag.default(true),
});

export type StorageEnv = z.infer<typeof StorageEnvSchema>;

/** The driver and its options, resolved from a validated environment. */
export type StorageConfig = { driver: 'fs'; fs: FileSystemBlobStoreOptions } | { driver: 's3'; s3: S3BlobStoreOptions };

/** Resolves defaults that depend on more than one variable (the fs root) and `~`. */
export function storageConfigFrom(env: StorageEnv, home: string = homedir()): StorageConfig {
  if (env.STORAGE_DRIVER === 'fs') {
    const stackHome = env.LONGHAUL_HOME ? expandHome(env.LONGHAUL_HOME, home) : join(home, '.cache', 'longhaul');
    const root = env.STORAGE_FS_ROOT ? expandHome(env.STORAGE_FS_ROOT, home) : join(stackHome, 'blobs');
    return { driver: 'fs', fs: { root } };
  }
  return {
    driver: 's3',
    s3: {
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    },
  };
}

/** `~` and `~/x` are under the home folder; a relative path is taken from the working folder. */
function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}
