import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

import { assertSafeKey, assertSafePrefix, isSafeKey, MAX_KEY_LENGTH } from './blob-key.policy';

describe('assertSafeKey', () => {
  it.each(['a', 'jobs/42/source.mp4', 'A-Z_a.z-0.9', 'jobs/x/.hidden', 'a/b/c/d/e/f', '...', 'x'.repeat(255)])(
    'accepts %s',
    (key) => {
      expect(() => assertSafeKey(key)).not.toThrow();
      expect(isSafeKey(key)).toBe(true);
    },
  );

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['../outside', '".." segment'],
    ['jobs/../../outside', '".." segment'],
    ['jobs/./x', '"." segment'],
    ['.', '"." segment'],
    ['jobs//x', 'empty segment'],
    ['jobs/x/', 'empty segment'],
    ['jobs\\x', 'characters'],
    ['..\\outside', 'characters'],
    ['jobs/x\0.mp4', 'characters'],
    ['jobs/a b', 'characters'],
    ['jobs/ü', 'characters'],
    ['jobs/x~tmp', 'characters'],
    ['jobs/%2e%2e', 'characters'],
    ['C:/x', 'characters'],
    ['x'.repeat(256), 'segment longer'],
    [Array(300).fill('abcd').join('/'), 'longer than'],
  ])('refuses %j (%s) with blob_key_invalid', (key, reason) => {
    expect(isSafeKey(key)).toBe(false);
    try {
      assertSafeKey(key);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(LonghaulError);
      expect((error as LonghaulError).code).toBe(ErrorCodes.blobKeyInvalid);
      expect((error as LonghaulError).retryable).toBe(false);
      expect((error as Error).message).toContain(reason);
    }
  });

  it('refuses what is not a string', () => {
    expect(() => assertSafeKey(42 as unknown as string)).toThrow(expect.objectContaining({ code: ErrorCodes.blobKeyInvalid }));
  });

  it('has S3 key length as its limit', () => {
    expect(MAX_KEY_LENGTH).toBe(1024);
  });
});

describe('assertSafePrefix', () => {
  it.each(['', 'jobs', 'jobs/', 'jobs/42/', 'jobs/42/out', 'jobs/42/.'])('accepts %j', (prefix) => {
    expect(() => assertSafePrefix(prefix)).not.toThrow();
  });

  it.each(['/', '/jobs', '../', 'jobs/../', 'jobs//', 'jobs\\', 'jobs/\0', 'a b/'])('refuses %j', (prefix) => {
    expect(() => assertSafePrefix(prefix)).toThrow(expect.objectContaining({ code: ErrorCodes.blobKeyInvalid }));
  });
});
