/**
 * The environment of services that run the simulated step mode with short timings (the
 * integration and dashboard suites): steps read and write nothing and act on a job's `sim.*`
 * metadata; retries come within a second and a series has three attempts; leases, the
 * watchdog, deadlines and retention passes act within seconds. Suites spread it and override what they need.
 */
export const SIMULATED_SERVICE_ENV: Readonly<Record<string, string>> = {
  LONGHAUL_TRACING: 'true',
  STEP_MODE: 'simulated',
  // Simulated steps never read their input: the api does not fetch or probe sources.
  SOURCE_PROBE: 'false',
  SIM_STEP_MS: '200',
  STEP_POLL_MS: '50',
  // A request left waiting for a slot is announced (StepQueued) after 300 ms rather than 10 s,
  // so the suites see the announcing pass at work within their waits.
  STEP_QUEUED_REPORT_MS: '300',
  STEP_LEASE_MS: '3000',
  STEP_PROGRESS_INTERVAL_MS: '1000',
  STEP_DEADLINE_MS: '6000',
  FAST_LANE_BUDGET_MS: '3000',
  SHUTDOWN_GRACE_MS: '1000',
  RETRY_MAX_ATTEMPTS: '3',
  RETRY_BASE_MS: '100',
  RETRY_CAP_MS: '400',
  WATCHDOG_INTERVAL_MS: '500',
  WATCHDOG_SILENT_MS: '8000',
  // A retention pass every 2 s, so a suite sees the records it backdates go; outbox rows are
  // kept a day, so the rows a suite backdates by hours to drive a pruner of its own are that
  // pruner's alone to delete.
  RETENTION_INTERVAL_MS: '2000',
  OUTBOX_RETENTION_MS: '86400000',
};
