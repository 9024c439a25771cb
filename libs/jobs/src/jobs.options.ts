import type { LanePolicyOptions } from './create-job/lane.policy';
import type { ApiNotificationsOptions } from './notifications/notifications.options';
import type { RetryPolicy } from './retry/retry.policy';
import type { WatchdogLimits } from './watchdog/job.watchdog';

/** Options of {@link JobsModule.forRoot}; the api's config supplies them. All durations in ms. */
export interface JobsModuleOptions {
  retry: { fallback: RetryPolicy; byType: Record<string, RetryPolicy> };
  lanes: LanePolicyOptions;
  /** How often the retry scheduler looks for due retries. */
  schedulerPollMs: number;
  /** Saga transactions at once per `job.events` partition, split by job (the consumer's `keyConcurrency`). */
  sagaConcurrency: number;
  /** Announce step transitions on `job.lifecycle` too (`LIFECYCLE_STEP_EVENTS`); they are on the job's feed either way. */
  lifecycleStepEvents: boolean;
  /** Announce a job's start on `job.lifecycle` (`LIFECYCLE_START_EVENTS`); it is on the job's feed either way. */
  lifecycleStartEvents: boolean;
  watchdog: WatchdogLimits & { intervalMs: number };
  /** How often the blobs of jobs the retention loop deleted are looked for (`RETENTION_INTERVAL_MS`). */
  blobPurgeIntervalMs: number;
  /** Record applied effects in `api.effect_ledger`. */
  effectLedger: boolean;
  /** How long a presigned download URL works. */
  downloadUrlTtlSeconds: number;
  /** Signs download grants (`/v1/files/<grant>/…` links). */
  downloadSigningKey: string;
  /** Webhook URL rules and the key webhook secrets derive from. */
  notifications: ApiNotificationsOptions;
}

export const JOBS_OPTIONS = Symbol('longhaul.jobsOptions');
