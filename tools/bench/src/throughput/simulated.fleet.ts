// The four Longhaul services as the throughput benchmarks run them: real processes on the shared
// native stack, in the simulated step mode with steps that take no time, so what is measured is
// Longhaul's own machinery (api, outbox, relay, consumers, work queues, saga, notifier).

import { join } from 'node:path';
import { PEER_STAGE_CONCURRENCY } from '../peers/peer.adapter';
import { removeFinishedJobs, type JobRemoval } from './finished-jobs.remover';
import { cancelOpenJobs } from './open-jobs.canceller';
import { DEFAULT_RETENTION_INTERVAL_MS } from '@longhaul/config';
import { issueApiKey, revokeApiKey, ServiceProcess, SIMULATED_SERVICE_ENV, stackEnv, workspaceRoot, type StackInfo } from '@longhaul/testing';

/**
 * `SIMULATED_SERVICE_ENV` (the integration suites' simulated mode: no source probing) with these
 * changes for throughput (one instance of each service, two step slots per lane):
 * - `SIM_STEP_MS=0`: a simulated step takes no time, so a chain measures the machinery alone.
 * - `WATCHDOG_SILENT_MS=120000` and `WATCHDOG_INTERVAL_MS=5000` (the defaults): the suites' 8 s
 *   and 500 ms exist to test lost steps quickly; under a saturating backlog 8 s could declare
 *   waiting steps lost and retry them, which would add work the benchmark did not ask for, and a
 *   sweep every 500 ms scans the open steps twice a second (about 4 ms of Postgres each).
 * - `STEP_POLL_MS=200` (the default): the suites poll every 50 ms to keep their waits short.
 *   Here a worker's own consumer wakes its runner, and a slot that frees up claims at once, so
 *   polling only bounds the wait for items another process queued; at 50 ms the three runners'
 *   idle claims were sixty transactions a second the pipeline did not need.
 * - `STEP_QUEUED_REPORT_MS=10000` (the default): the suites' 300 ms exists so that they see a
 *   waiting request announced; a saturating batch keeps requests waiting for slots for seconds,
 *   and each announcement is an event more through the relay and the saga.
 * - `LONGHAUL_TRACING=false`, `LOG_LEVEL=warn`: like the submit benchmark's api and like the
 *   peers, which export no spans and log nothing per job; trace context still propagates.
 * - `RETENTION_INTERVAL_MS` at its default (60 s): the suites' pass every 2 s exists so that they
 *   see backdated records go. Every service's pass reads its inbox topics' offsets from the broker,
 *   and at 100 jobs/s the broker took about 0.3 ms more CPU per job with the 2 s pass
 *   (docs/benchmarks/tuning.md, section 24).
 *
 * Still the suites': `OUTBOX_RETENTION_MS` of a day (so that no run deletes an earlier run's
 * relayed rows while it measures), and short lease, deadline, retry, shutdown and fast-lane-budget
 * timers, which act only on steps that run long, fail or are stopped: none here.
 */
export const THROUGHPUT_SERVICE_ENV: Readonly<Record<string, string>> = {
  ...SIMULATED_SERVICE_ENV,
  SIM_STEP_MS: '0',
  WATCHDOG_SILENT_MS: '120000',
  WATCHDOG_INTERVAL_MS: '5000',
  STEP_POLL_MS: '200',
  STEP_QUEUED_REPORT_MS: '10000',
  LONGHAUL_TRACING: 'false',
  LOG_LEVEL: 'warn',
  RETENTION_INTERVAL_MS: String(DEFAULT_RETENTION_INTERVAL_MS),
};

/**
 * Step slots per worker, as many as the peers keep in flight per stage (`PEER_STAGE_CONCURRENCY`,
 * 16): the defaults (two fast slots) size a lane for ffmpeg on two cores, and a no-op chain run
 * with two would measure the slot count rather than the machinery. The database pools grow to
 * match, so each slot and each consumed partition has a connection.
 */
export const THROUGHPUT_APP_ENV: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  transcoder: { STEP_CONCURRENCY_FAST: String(PEER_STAGE_CONCURRENCY), DATABASE_POOL_SIZE: '24' },
  thumbnailer: { STEP_CONCURRENCY: String(PEER_STAGE_CONCURRENCY), DATABASE_POOL_SIZE: '24' },
};

/** The tenant the throughput benchmarks' jobs belong to. */
export const BENCH_TENANT = 'bench';

/**
 * A rate limit no run reaches: the api's default (600 a minute per key) would throttle the
 * benchmark, not measure Longhaul.
 */
const BENCH_RATE_LIMIT = 100_000_000;

/** The apps in the order they start: the api first, as it migrates the shared tables' schemas. */
const APPS = ['api', 'transcoder', 'thumbnailer', 'notifier'] as const;

/** Running services and the key they accept. */
export interface SimulatedFleet {
  services: ServiceProcess[];
  apiUrl: string;
  apiKey: string;
  /** Jobs of {@link BENCH_TENANT} an earlier run left open, cancelled once the services were up. */
  cancelledAtStart: number;
  /** Finished jobs of {@link BENCH_TENANT} that earlier runs left, removed once the services were up. */
  removedAtStart: JobRemoval;
  /**
   * Cancels the run's jobs that are still open (see {@link cancelOpenJobs}), stops the services
   * and revokes the key, then removes the tenant's finished jobs ({@link removeFinishedJobs}).
   * Says how many it cancelled and removed.
   */
  stop(): Promise<{ cancelled: number; removed: JobRemoval }>;
}

/**
 * Issues a key for {@link BENCH_TENANT} (read and write scopes; the keys command migrates the
 * database first), then starts api, transcoder, thumbnailer and notifier (with
 * {@link THROUGHPUT_APP_ENV}) on `basePort`…
 * `basePort + 3`, each waiting for its `/readyz`, cancels the tenant's jobs an earlier run
 * left open, so the run starts on an idle pipeline, and removes its finished ones, so every run
 * starts on tables of the same size. If one fails to start, those started are stopped and the key
 * revoked before the error is thrown.
 */
export async function startSimulatedFleet(stack: StackInfo, basePort: number): Promise<SimulatedFleet> {
  const key = await issueApiKey({ databaseUrl: stack.databaseUrl, tenant: BENCH_TENANT, scopes: ['read', 'write'], name: 'throughput benchmark', rateLimit: BENCH_RATE_LIMIT });
  const env = { ...stackEnv(stack), ...THROUGHPUT_SERVICE_ENV };
  const logDir = join(workspaceRoot(), 'tmp', 'bench-logs');
  const services = APPS.map((app, offset) => new ServiceProcess({ app, port: basePort + offset, env: { ...env, ...THROUGHPUT_APP_ENV[app] }, logDir }));
  const apiUrl = services[0]!.url;
  const cancelOpen = () => cancelOpenJobs(stack.databaseUrl, BENCH_TENANT, apiUrl, key.key);
  const stopServices = async () => {
    await Promise.all(services.map((service) => service.stop('SIGTERM')));
    await revokeApiKey(stack.databaseUrl, key.prefix).catch(() => undefined);
  };
  const removeFinished = () => removeFinishedJobs(stack.databaseUrl, BENCH_TENANT);
  let cancelledAtStart: number;
  let removedAtStart: JobRemoval;
  try {
    // One at a time: four cold starts at once on a small machine only slow each other down.
    for (const service of services) await service.start(120_000);
    cancelledAtStart = await cancelOpen();
    // After the api has started: it creates the tables on a fresh stack.
    removedAtStart = await removeFinished();
  } catch (error) {
    await stopServices();
    throw error;
  }
  const stop = async () => {
    let cancelled: number;
    try {
      cancelled = await cancelOpen();
    } finally {
      await stopServices();
    }
    return { cancelled, removed: await removeFinished() };
  };
  return { services, apiUrl, apiKey: key.key, cancelledAtStart, removedAtStart, stop };
}
