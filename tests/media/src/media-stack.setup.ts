import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNativeStack, stackEnv, startServices, workspaceRoot, type RunningServices } from '@longhaul/testing';

declare global {
  var __longhaulMedia: { services?: RunningServices } | undefined;
}

/**
 * Brings the native stack up (or reuses it) and starts the four services in media mode on
 * ports 15000–15003: the api probes every input, the workers run ffmpeg and sharp. They share
 * one blob store: a folder under tmp/media-blobs, or with `LONGHAUL_MEDIA_STORAGE=s3` the
 * stack's S3 server (SeaweedFS), where downloads are presigned URLs. Retention passes come every
 * 2 s.
 */
export default async function globalSetup(): Promise<void> {
  const driver = process.env['LONGHAUL_MEDIA_STORAGE'] === 's3' ? 's3' : 'fs';
  const stack = ensureNativeStack();
  const root = workspaceRoot();
  const logDir = join(root, 'tmp', 'media-logs');
  const blobs = join(root, 'tmp', 'media-blobs');
  rmSync(blobs, { recursive: true, force: true });
  mkdirSync(blobs, { recursive: true });
  const env: Record<string, string> = {
    LONGHAUL_TRACING: 'false',
    STEP_MODE: 'media',
    STEP_POLL_MS: '50',
    STEP_PROGRESS_INTERVAL_MS: '1000',
    // A retention pass every 2 s, so the suite sees a backdated job's blobs go.
    RETENTION_INTERVAL_MS: '2000',
    ...(driver === 's3'
      ? { STORAGE_DRIVER: 's3', S3_ENDPOINT: `http://127.0.0.1:${process.env['LONGHAUL_S3_PORT'] ?? 8333}` }
      : { STORAGE_DRIVER: 'fs', STORAGE_FS_ROOT: blobs }),
    SOURCE_PROBE: 'true',
  };
  globalThis.__longhaulMedia = {};
  const services = await startServices({ stack, logDir, basePort: 15_000, env });
  globalThis.__longhaulMedia.services = services;
  process.env['LONGHAUL_TEST_API_URL'] = services.api.url;
  process.env['LONGHAUL_TEST_API_KEY'] = services.apiKey;
  process.env['LONGHAUL_TEST_DATABASE_URL'] = stack.databaseUrl;
  process.env['LONGHAUL_TEST_KAFKA_BROKERS'] = stack.kafkaBrokers;
  process.env['LONGHAUL_TEST_STACK'] = stack.mode;
  process.env['LONGHAUL_TEST_JAEGER_URL'] = stack.jaegerUrl;
  process.env['LONGHAUL_TEST_LOG_DIR'] = logDir;
  process.env['LONGHAUL_TEST_STORAGE'] = driver;
  process.env['LONGHAUL_TEST_SERVICE_ENV'] = JSON.stringify({ ...stackEnv(stack), ...env });
}
