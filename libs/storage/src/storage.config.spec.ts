import { ErrorCodes } from '@longhaul/contracts';
import { loadConfig } from '@longhaul/config';

import { StorageEnvSchema, storageConfigFrom } from './storage.config';
import { contentTypeForKey } from './content-type.policy';

const HOME = '/home/dev';
const load = (env: Record<string, string>) => storageConfigFrom(loadConfig('test', StorageEnvSchema, env), HOME);

describe('storage config', () => {
  it('defaults to files under the stack cache folder', () => {
    expect(load({})).toEqual({ driver: 'fs', fs: { root: '/home/dev/.cache/longhaul/blobs' } });
  });

  it('follows LONGHAUL_HOME like tools/infra, and expands ~ in STORAGE_FS_ROOT', () => {
    expect(load({ LONGHAUL_HOME: '/srv/longhaul' })).toEqual({ driver: 'fs', fs: { root: '/srv/longhaul/blobs' } });
    expect(load({ LONGHAUL_HOME: '~/lh' })).toEqual({ driver: 'fs', fs: { root: '/home/dev/lh/blobs' } });
    expect(load({ LONGHAUL_HOME: '/srv/longhaul', STORAGE_FS_ROOT: '~/blobs' })).toEqual({ driver: 'fs', fs: { root: '/home/dev/blobs' } });
    expect(load({ STORAGE_FS_ROOT: '/data/blobs' })).toEqual({ driver: 'fs', fs: { root: '/data/blobs' } });
  });

  it('defaults the s3 driver to the native stack SeaweedFS', () => {
    expect(load({ STORAGE_DRIVER: 's3' })).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:8333',
        region: 'us-east-1',
        bucket: 'longhaul',
        accessKeyId: 'longhaul',
        secretAccessKey: 'longhaul-secret',
        forcePathStyle: true,
      },
    });
    expect(load({ STORAGE_DRIVER: 's3', S3_FORCE_PATH_STYLE: 'false' })).toMatchObject({ s3: { forcePathStyle: false } });
  });

  it('fails fast naming the variable', () => {
    expect(() => load({ STORAGE_DRIVER: 'gcs' })).toThrow(expect.objectContaining({ code: ErrorCodes.configInvalid, message: expect.stringContaining('STORAGE_DRIVER') }));
    expect(() => load({ S3_BUCKET: 'Not_A_Bucket' })).toThrow(expect.objectContaining({ message: expect.stringContaining('S3_BUCKET') }));
    expect(() => load({ S3_ENDPOINT: 'nope' })).toThrow(expect.objectContaining({ message: expect.stringContaining('S3_ENDPOINT') }));
  });

  it('composes into an app schema by its shape', () => {
    expect(Object.keys(StorageEnvSchema.shape)).toContain('STORAGE_DRIVER');
  });
});

describe('contentTypeForKey', () => {
  it('reads the extension, case-insensitively, and falls back to octet-stream', () => {
    expect(contentTypeForKey('jobs/1/720p.MP4')).toBe('video/mp4');
    expect(contentTypeForKey('jobs/1/thumb.jpg')).toBe('image/jpeg');
    expect(contentTypeForKey('jobs/1/source')).toBe('application/octet-stream');
    expect(contentTypeForKey('jobs/1/.mp4')).toBe('application/octet-stream');
    expect(contentTypeForKey('jobs.mp4/source')).toBe('application/octet-stream');
  });
});
