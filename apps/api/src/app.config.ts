import { z } from 'zod';
import { CommonEnvSchema, CorsEnvSchema, DEFAULT_API_KEY_RETENTION_MS, envFlag, envPort, loadConfig, WEBHOOK_SIGNING_SECRET, WebhookEnvSchema, type SecretVariable } from '@longhaul/config';
import { DEFAULT_PARTITIONS, type DashboardConfigView } from '@longhaul/contracts';
import {
  DEFAULT_SOURCE_FETCH_TIMEOUT_MS,
  DEFAULT_SSE_KEEPALIVE_MS,
  DEFAULT_SSE_REREAD_MS,
  DEFAULT_SOURCE_MAX_REDIRECTS,
  DEFAULT_UPLOAD_MAX_BYTES,
  RetryPolicySchema,
  type IntakeModuleOptions,
  type JobFeedModuleOptions,
  type JobsModuleOptions,
  type QueuesModuleOptions,
} from '@longhaul/jobs';
import { MediaEnvSchema } from '@longhaul/media';
import { StorageEnvSchema, storageConfigFrom } from '@longhaul/storage';
import { apiKeyHistory, MAX_KEY_CACHE_MS, type RateLimitOptions } from '@longhaul/auth';
import type { HistoryTable } from '@longhaul/persistence';

/** The download signing key of `nx serve` and the tests when none is set: published here, so never for deployments. */
export const DEVELOPMENT_DOWNLOAD_SIGNING_KEY = 'longhaul-development-download-signing-key-do-not-deploy';

const ms = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** @see ApiEnvSchema SAGA_CONCURRENCY */
const DEFAULT_SAGA_CONCURRENCY = 2;
/** Connections besides the saga's: HTTP requests, the other consumer, samplers, scheduler, watchdog, retention. */
const API_POOL_HEADROOM = 8;

/** Connections the saga may hold at once: one per transaction, on every partition it consumes. */
export function sagaConnections(concurrency: number): number {
  return DEFAULT_PARTITIONS * concurrency;
}

/** The api's environment, validated once at start. */
export const ApiEnvSchema = CommonEnvSchema.extend(StorageEnvSchema.shape).extend(WebhookEnvSchema.shape).extend(CorsEnvSchema.shape).extend(MediaEnvSchema.pick({ FFPROBE_PATH: true }).shape).extend({
  /** HTTP port. @defaultValue 3000 */
  PORT: envPort.default(3000),
  /** Largest JSON body accepted; larger ones get 413. @defaultValue 64kb */
  API_JSON_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/).default('64kb'),
  /** Attempts per step series, the first included. @defaultValue 5 */
  RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  /** Backoff ceiling before the first retry (full jitter below it). @defaultValue 1000 */
  RETRY_BASE_MS: ms(1000),
  /** Largest backoff. @defaultValue 60000 */
  RETRY_CAP_MS: ms(60_000),
  /**
   * Per job type overrides, JSON: `{"video.process":{"maxAttempts":3,"baseMs":500,"capMs":10000}}`.
   * @defaultValue {}
   */
  RETRY_POLICIES: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), RetryPolicySchema)),
  /** How often due retries are looked for. @defaultValue 250 */
  RETRY_SCHEDULER_POLL_MS: ms(250, 10),
  /** Media duration assumed for the lane estimate while the input is not probed. @defaultValue 60 */
  LANE_ASSUMED_DURATION_S: z.coerce.number().min(0).default(60),
  /** Largest estimated cost (media seconds × rendition weights) that goes to the fast lane. @defaultValue 1800 */
  LANE_FAST_MAX_COST: z.coerce.number().min(0).default(1800),
  /** How often the watchdog looks for silent steps. @defaultValue 5000 */
  WATCHDOG_INTERVAL_MS: ms(5000, 100),
  /** A dispatched request no worker confirmed within this is re-dispatched. @defaultValue 300000 */
  WATCHDOG_UNRELAYED_MS: ms(300_000, 1000),
  /**
   * A request a worker confirmed but did not start within this is re-dispatched. Generous: the
   * worker's queue is durable, and admission control keeps backlogs well below it. @defaultValue 21600000 (6 h)
   */
  WATCHDOG_QUEUED_MS: ms(21_600_000, 1000),
  /** A running step without a heartbeat for this long is re-dispatched (keep it well above the workers' STEP_PROGRESS_INTERVAL_MS). @defaultValue 120000 */
  WATCHDOG_SILENT_MS: ms(120_000, 1000),
  /** Queued steps in the fast lane at which submits to it get 429. @defaultValue 10000 */
  ADMISSION_MAX_DEPTH_FAST: z.coerce.number().int().min(1).default(10_000),
  /** Queued steps in the slow lane at which submits to it get 429. @defaultValue 2000 */
  ADMISSION_MAX_DEPTH_SLOW: z.coerce.number().int().min(1).default(2_000),
  /**
   * Open steps (queued or running) one tenant may have in the fast lane before its submits to it
   * get 429. Half the lane's default, so two tenants can always both be served: one alone never
   * fills the lane. @defaultValue 5000
   */
  ADMISSION_MAX_DEPTH_PER_TENANT_FAST: z.coerce.number().int().min(1).default(5_000),
  /** The same for the slow lane (half of its default too). @defaultValue 1000 */
  ADMISSION_MAX_DEPTH_PER_TENANT_SLOW: z.coerce.number().int().min(1).default(1_000),
  /** Unconsumed messages of a lane's worker groups at which submits to it get 429. @defaultValue 20000 */
  ADMISSION_MAX_LAG: z.coerce.number().int().min(1).default(20_000),
  /**
   * Requests one API key may make per window, unless the key has a limit of its own; also the
   * burst a quiet key may send at once. Past it requests get 429. Counted across every api
   * process with `RATE_LIMIT_SCOPE=cluster`, per process with `process`. @defaultValue 600
   */
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** The rate-limit window in seconds: a key's quota refills evenly over it. @defaultValue 60 */
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * `cluster`: every api process counts a key's requests in one bucket in the database, leasing
   * a second's worth of its quota at a time (one statement per lease), so a key gets its quota
   * however many processes serve it. `process`: each process counts alone in memory (no
   * statement; N processes admit up to N × the quota). @defaultValue cluster
   */
  RATE_LIMIT_SCOPE: z.enum(['cluster', 'process']).default('cluster'),
  /**
   * `cluster` only: how long a process keeps requests it leased from a key's bucket before it
   * hands back what it did not use. Longer: fewer statements, more capacity held where the key
   * no longer comes. @defaultValue 1000
   */
  RATE_LIMIT_LEASE_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * Look at every job's input before accepting it: uploads are looked up, URL sources downloaded,
   * both probed, and non-video refused. Switch off only for runs whose steps never read the input
   * (the simulated step mode). @defaultValue true
   */
  SOURCE_PROBE: envFlag.default(true),
  /** Largest upload (`POST /v1/uploads`, else 413) and URL source (else 422 `source_too_large`), in bytes. @defaultValue 2147483648 (2 GiB) */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1).default(DEFAULT_UPLOAD_MAX_BYTES),
  /** Time allowed to download a job's source URL, redirects included. @defaultValue 120000 */
  SOURCE_FETCH_TIMEOUT_MS: ms(DEFAULT_SOURCE_FETCH_TIMEOUT_MS, 1000),
  /** Redirects followed when downloading a source URL, each target checked again. @defaultValue 5 */
  SOURCE_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(DEFAULT_SOURCE_MAX_REDIRECTS),
  /**
   * Also download sources from loopback, private (RFC 1918, fc00::/7) and CGNAT addresses: tests
   * and local development only. Link-local (cloud metadata), multicast and unspecified stay refused. @defaultValue false
   */
  SOURCE_ALLOW_PRIVATE_ADDRESSES: envFlag.default(false),
  /** Time allowed for a whole HTTP request, body included (a large upload on a slow link); 0 for none. @defaultValue 3600000 */
  API_REQUEST_TIMEOUT_MS: ms(3_600_000),
  /**
   * Signs the download grants in job file links (`/v1/files/<grant>/…`), which work without an
   * API key. At least 32 characters; changing it ends every link handed out.
   * @defaultValue a development key (a warning is logged)
   */
  DOWNLOAD_SIGNING_KEY: z.string().min(32).default(DEVELOPMENT_DOWNLOAD_SIGNING_KEY),
  /** How long an API key looked up is trusted before it is read again; a revoked key stops working within it. @defaultValue 1000 */
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(MAX_KEY_CACHE_MS).default(MAX_KEY_CACHE_MS),
  /**
   * How long a revoked or expired API key's row is kept after it stopped working, then deleted
   * by the retention pass (it leaves `keys list` and `GET /v1/api-keys`). `0` keeps every key for
   * ever; so does `JOB_RETENTION_MS=0`, which stops the pass. @defaultValue 7776000000 (90 days)
   */
  API_KEY_RETENTION_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || ms >= 3_600_000, 'must be 0 (keep for ever) or at least 3600000 (an hour)')
    .default(DEFAULT_API_KEY_RETENTION_MS),
  /** How long a presigned download URL (and a download grant) works, in seconds. @defaultValue 3600 */
  DOWNLOAD_URL_TTL_S: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(3600),
  /** How often queue depth per lane is sampled. @defaultValue 1000 */
  QUEUE_SAMPLE_MS: ms(1000, 10),
  /** Time between keepalive comments on an idle event stream (`GET /v1/jobs/{id}/events`). @defaultValue 15000 */
  SSE_KEEPALIVE_MS: ms(DEFAULT_SSE_KEEPALIVE_MS, 100),
  /** Time between an event stream's safety re-reads of the job feed, in case a notification was lost. @defaultValue 5000 */
  SSE_REREAD_MS: ms(DEFAULT_SSE_REREAD_MS, 100),
  /** The Jaeger UI the dashboard links each job's trace to (`<url>/trace/<traceId>`). @defaultValue http://127.0.0.1:16686 */
  DASHBOARD_JAEGER_URL: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:16686')
    .transform((url) => url.replace(/\/+$/, '')),
  /**
   * Transactions the saga runs at once per `job.events` partition, split by job (each job's
   * events stay in order in one). The saga waits on Postgres far more than it computes, so
   * events of different jobs are handled side by side. Not more by default: each further
   * transaction splits a fetched chunk into smaller ones, each with its own commit, and at 100
   * jobs/s two beat four on the machine's CPU per job and the p99 (docs/benchmarks/tuning.md,
   * section 7). @defaultValue 2
   */
  SAGA_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(DEFAULT_SAGA_CONCURRENCY),
  /**
   * Publish every step transition on `job.lifecycle` (`StepTransitioned.v1`), not only the job's
   * own (`JobStarted`, `JobCompleted`…). Off by default: no Longhaul service reads them, clients
   * follow a job's steps on its feed (`GET /v1/jobs/{id}/events`), and relaying them was about a
   * tenth of a job's CPU (docs/benchmarks/tuning.md, section 31). Turn on for consumers of the
   * topic that want step detail. @defaultValue false
   */
  LIFECYCLE_STEP_EVENTS: envFlag.default(false),
  /**
   * Publish a job's start on `job.lifecycle` (`JobStarted.v1`). Off by default, for the reasons
   * step events are: nothing in Longhaul acts on it (webhooks and email are sent for a job's end;
   * the notifier only recorded it), clients see the start on the job's feed, and relaying it cost
   * 2–6 % of a job's CPU (docs/benchmarks/tuning.md, section 35). The job's end, cancel and
   * reopening are always published. @defaultValue false
   */
  LIFECYCLE_START_EVENTS: envFlag.default(false),
  /**
   * Database pool size: at least {@link sagaConnections} (each partition's saga transactions)
   * plus room for the HTTP routes and background loops. @defaultValue 32
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(32),
}).superRefine((config, issues) => {
  const needed = sagaConnections(config.SAGA_CONCURRENCY) + API_POOL_HEADROOM;
  if (config.DATABASE_POOL_SIZE < needed) {
    issues.addIssue({
      code: 'custom',
      path: ['DATABASE_POOL_SIZE'],
      message: `must be at least ${needed}: ${DEFAULT_PARTITIONS} partitions × SAGA_CONCURRENCY ${config.SAGA_CONCURRENCY} saga transactions, and ${API_POOL_HEADROOM} for requests and background loops`,
    });
  }
});

export type ApiConfig = z.infer<typeof ApiEnvSchema>;

/** The api's secrets with a published development default: refused under `NODE_ENV=production`, warned about otherwise. */
/** The download signing key: checked like every secret (refused in production while it is the published one). */
const DOWNLOAD_SIGNING_SECRET: SecretVariable = {
  name: 'DOWNLOAD_SIGNING_KEY',
  developmentDefault: DEVELOPMENT_DOWNLOAD_SIGNING_KEY,
  warning: 'DOWNLOAD_SIGNING_KEY is the published development key: anyone can forge download links to any job; set your own',
};

export const API_SECRETS: readonly SecretVariable[] = [WEBHOOK_SIGNING_SECRET, DOWNLOAD_SIGNING_SECRET];

export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return loadConfig('api', ApiEnvSchema, env, { secrets: API_SECRETS });
}

/** The jobs module's options from the api's config. */
export function jobsOptions(config: ApiConfig): JobsModuleOptions {
  return {
    retry: {
      fallback: { maxAttempts: config.RETRY_MAX_ATTEMPTS, baseMs: config.RETRY_BASE_MS, capMs: config.RETRY_CAP_MS },
      byType: config.RETRY_POLICIES,
    },
    lanes: { assumedDurationSeconds: config.LANE_ASSUMED_DURATION_S, fastLaneMaxCost: config.LANE_FAST_MAX_COST },
    schedulerPollMs: config.RETRY_SCHEDULER_POLL_MS,
    blobPurgeIntervalMs: config.RETENTION_INTERVAL_MS,
    sagaConcurrency: config.SAGA_CONCURRENCY,
    lifecycleStepEvents: config.LIFECYCLE_STEP_EVENTS,
    lifecycleStartEvents: config.LIFECYCLE_START_EVENTS,
    watchdog: {
      intervalMs: config.WATCHDOG_INTERVAL_MS,
      unrelayedMs: config.WATCHDOG_UNRELAYED_MS,
      queuedMs: config.WATCHDOG_QUEUED_MS,
      silentMs: config.WATCHDOG_SILENT_MS,
    },
    effectLedger: config.LONGHAUL_EFFECT_LEDGER,
    downloadUrlTtlSeconds: config.DOWNLOAD_URL_TTL_S,
    downloadSigningKey: config.DOWNLOAD_SIGNING_KEY,
    notifications: {
      signingKey: config.WEBHOOK_SIGNING_KEY,
      allowHttp: config.WEBHOOK_ALLOW_HTTP,
      allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
    },
  };
}

/** The queues module's options (admission limits, sampling) from the api's config. */
export function queuesOptions(config: ApiConfig): QueuesModuleOptions {
  return {
    maxDepth: { fast: config.ADMISSION_MAX_DEPTH_FAST, slow: config.ADMISSION_MAX_DEPTH_SLOW },
    maxDepthPerTenant: { fast: config.ADMISSION_MAX_DEPTH_PER_TENANT_FAST, slow: config.ADMISSION_MAX_DEPTH_PER_TENANT_SLOW },
    maxLag: config.ADMISSION_MAX_LAG,
    sampleMs: config.QUEUE_SAMPLE_MS,
  };
}

/** The job feed's options (event streams) from the api's config. */
export function jobFeedOptions(config: ApiConfig): JobFeedModuleOptions {
  return { databaseUrl: config.DATABASE_URL, keepaliveMs: config.SSE_KEEPALIVE_MS, rereadMs: config.SSE_REREAD_MS };
}

/** What the dashboard reads from `GET /dashboard/config.json`. */
export function dashboardConfig(config: ApiConfig): DashboardConfigView {
  return { jaegerUrl: config.DASHBOARD_JAEGER_URL };
}

/** The intake module's options (uploads, URL sources, the blob store) from the api's config. */
export function intakeOptions(config: ApiConfig): IntakeModuleOptions {
  return {
    blobStore: storageConfigFrom(config),
    uploadMaxBytes: config.UPLOAD_MAX_BYTES,
    prepareSources: config.SOURCE_PROBE,
    ffprobePath: config.FFPROBE_PATH,
    fetch: { timeoutMs: config.SOURCE_FETCH_TIMEOUT_MS, maxRedirects: config.SOURCE_MAX_REDIRECTS, allowPrivateAddresses: config.SOURCE_ALLOW_PRIVATE_ADDRESSES },
  };
}

/** The per-key rate limit (requests per window, shared by the api processes or each its own) from the api's config. */
export function rateLimitOptions(config: ApiConfig): RateLimitOptions {
  return { quota: config.RATE_LIMIT_REQUESTS, windowSeconds: config.RATE_LIMIT_WINDOW_S, scope: config.RATE_LIMIT_SCOPE, leaseMs: config.RATE_LIMIT_LEASE_MS };
}

/** The revoked and expired API keys' retention, unless configured away. */
export function apiKeyRetention(config: ApiConfig): HistoryTable[] {
  return config.API_KEY_RETENTION_MS > 0 ? [apiKeyHistory(config.API_KEY_RETENTION_MS)] : [];
}
