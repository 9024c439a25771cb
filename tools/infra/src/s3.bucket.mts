/**
 * The stack's one S3 bucket, through the S3 API itself (signed with the identity of
 * infra/s3/s3.identities.json), so a passing check also proves the credentials.
 *
 * The AWS SDK is imported on first use: every other CLI command stays as quick to load as before.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { S3Client } from '@aws-sdk/client-s3';

import { InfraError } from './infra.errors.mts';
import type { StackConfig } from './stack.config.mts';

async function withClient<T>(config: StackConfig, use: (client: S3Client, sdk: typeof import('@aws-sdk/client-s3')) => Promise<T>): Promise<T> {
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    endpoint: config.s3.url,
    region: config.s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: config.s3.accessKeyId, secretAccessKey: config.s3.secretAccessKey },
    maxAttempts: 1,
  });
  try {
    return await use(client, sdk);
  } finally {
    client.destroy();
  }
}

/** True when the bucket answers a signed HEAD. */
export function bucketExists(config: StackConfig): Promise<boolean> {
  return withClient(config, async (client, sdk) => {
    try {
      await client.send(new sdk.HeadBucketCommand({ Bucket: config.s3.bucket }), { abortSignal: AbortSignal.timeout(2_000) });
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Creates the bucket unless it exists. Retries for up to `timeoutMs`: the S3 gateway answers
 * /healthz a moment before its filer and master accept work.
 */
export async function ensureBucket(config: StackConfig, timeoutMs = 60_000): Promise<'created' | 'exists'> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await withClient(config, async (client, sdk) => {
        try {
          await client.send(new sdk.HeadBucketCommand({ Bucket: config.s3.bucket }), { abortSignal: AbortSignal.timeout(5_000) });
          return 'exists';
        } catch (error) {
          if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 404) throw error;
        }
        try {
          await client.send(new sdk.CreateBucketCommand({ Bucket: config.s3.bucket }), { abortSignal: AbortSignal.timeout(10_000) });
          return 'created';
        } catch (error) {
          if ((error as Error).name === 'BucketAlreadyOwnedByYou') return 'exists';
          throw error;
        }
      });
    } catch (error) {
      lastError = error;
      await sleep(500);
    }
  }
  throw new InfraError('START_FAILED', `could not create S3 bucket ${config.s3.bucket} at ${config.s3.url}: ${(lastError as Error)?.message ?? 'timed out'}`);
}
