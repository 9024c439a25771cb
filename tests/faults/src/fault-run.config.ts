import { join } from 'node:path';
import { workspaceRoot, type FleetMember } from '@longhaul/testing';

/** Everything the fault run can be tuned by. Read once, at the start of the run. */
export interface FaultRunConfig {
  /** Port of the first service; the fleet takes the next ones. @defaultValue 14000 */
  basePort: number;
  /** The services' log files (emptied at the start of a run). @defaultValue tmp/fault-logs */
  logDir: string;
  /** @defaultValue tmp/faults-report.md */
  reportFile: string;
  fleet: readonly FleetMember[];
  /** Environment of every service. */
  serviceEnv: Record<string, string>;
  /**
   * The `/readyz` checks an instance must pass to count as started, first or after a restart.
   * `/readyz` also wants Kafka and the relay, which the run takes down on purpose; an instance
   * the supervisor restarts meanwhile serves as soon as its database answers, and must not be
   * killed for waiting on the outage. @defaultValue ['postgres']
   */
  readyChecks: readonly string[];
  /** Lease of a work item; the pause fault lasts `pauseLeaseFactor` leases. @defaultValue 3000 */
  leaseMs: number;
  /** @defaultValue 2.5 */
  pauseLeaseFactor: number;
  /** Fewest load jobs: the submitter keeps going after the schedule until it has these. @defaultValue 500 */
  minJobs: number;
  /**
   * Load submits per second, for the whole fault window. About 500 jobs over the ~5–6 min the
   * schedule takes on two cores; a much higher rate leaves a backlog the drain cannot clear in
   * the run's time budget. @defaultValue 2
   */
  submitRatePerSecond: number;
  /** Submits in flight at once; ticks beyond it are skipped (recorded). @defaultValue 8 */
  maxInFlight: number;
  /** Kafka and Kafka Connect are held down this long. @defaultValue 20000 */
  outageMs: number;
  /** Postgres is held down this long between stop and start, so some submits meet it down. @defaultValue 3000 */
  postgresDownMs: number;
  /** Quiet time between one fault's recovery and the next fault. @defaultValue 5000 */
  settleMs: number;
  /** Longest wait for a probe job; a probe that never completes ends the schedule. @defaultValue 180000 */
  probeTimeoutMs: number;
  /** Longest wait to catch a worker instance with a step in flight before hitting it anyway. @defaultValue 15000 */
  midStepWaitMs: number;
  /** Longest wait for every accepted job to finish. @defaultValue 480000 */
  drainTimeoutMs: number;
  /** Longest wait for the last lifecycle events of the run's jobs to reach `job.lifecycle`. @defaultValue 120000 */
  lifecycleTimeoutMs: number;
}

const LEASE_MS = 3_000;

/** Reads the run's knobs (`FAULTS_*`) from `env`, with the defaults above. */
export function loadFaultRunConfig(env: NodeJS.ProcessEnv = process.env): FaultRunConfig {
  const number = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
    return value;
  };
  const root = workspaceRoot();
  return {
    basePort: number('FAULTS_BASE_PORT', 14_000),
    logDir: join(root, 'tmp', 'fault-logs'),
    reportFile: join(root, 'tmp', 'faults-report.md'),
    fleet: [
      // The api first: it migrates its schema before the workers' events reach it.
      { app: 'api', instance: 'api' },
      { app: 'transcoder', instance: 'transcoder-1' },
      { app: 'transcoder', instance: 'transcoder-2' },
      { app: 'thumbnailer', instance: 'thumbnailer-1' },
      { app: 'thumbnailer', instance: 'thumbnailer-2' },
      { app: 'notifier', instance: 'notifier' },
    ],
    serviceEnv: {
      STEP_MODE: 'simulated',
      // Simulated steps never read their input: the api does not fetch or probe sources.
      SOURCE_PROBE: 'false',
      SIM_STEP_MS: '300',
      SIM_FAILURE_RATE: '0.1',
      SIM_FATAL_RATE: '0.01',
      LONGHAUL_EFFECT_LEDGER: 'true',
      STEP_LEASE_MS: String(LEASE_MS),
      STEP_PROGRESS_INTERVAL_MS: '1000',
      STEP_POLL_MS: '50',
      RETRY_BASE_MS: '200',
      RETRY_CAP_MS: '2000',
      WATCHDOG_SILENT_MS: '60000',
      LONGHAUL_TRACING: 'false',
      LOG_LEVEL: 'info',
      // SIM_FATAL_RATE fails attempts for good; it kills no process. Unexpected deaths for the
      // supervisor to restart come from SIM_CRASH_RATE (a worker SIGKILLs itself mid-step), off
      // unless asked for.
      ...(env['FAULTS_SIM_CRASH_RATE'] ? { SIM_CRASH_RATE: env['FAULTS_SIM_CRASH_RATE'] } : {}),
    },
    readyChecks: ['postgres'],
    leaseMs: LEASE_MS,
    pauseLeaseFactor: 2.5,
    minJobs: number('FAULTS_MIN_JOBS', 500),
    submitRatePerSecond: number('FAULTS_SUBMIT_RATE', 2),
    maxInFlight: number('FAULTS_MAX_IN_FLIGHT', 8),
    outageMs: number('FAULTS_OUTAGE_MS', 20_000),
    postgresDownMs: number('FAULTS_POSTGRES_DOWN_MS', 3_000),
    settleMs: number('FAULTS_SETTLE_MS', 5_000),
    probeTimeoutMs: number('FAULTS_PROBE_TIMEOUT_MS', 180_000),
    midStepWaitMs: 15_000,
    drainTimeoutMs: number('FAULTS_DRAIN_TIMEOUT_MS', 8 * 60_000),
    lifecycleTimeoutMs: 120_000,
  };
}
