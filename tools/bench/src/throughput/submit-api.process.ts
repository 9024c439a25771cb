import { ServiceProcess, stackEnv, type StackInfo } from '@longhaul/testing';

/** The benchmark api's port and its inspector's (profiled run): in the benchmarks' range, clear of the other benchmarks' services. */
export const SUBMIT_API_PORT = 17_500;
export const INSPECTOR_PORT = 17_509;

/**
 * Admission limits no run reaches. Nothing consumes the benchmark's jobs, so each accepted job
 * stays queued until the run's tables are emptied, and one 64-connection run can pass the
 * per-tenant default (5000 open steps) by itself; a 429 would then be measured instead of an accept.
 */
export const ROOMY_ADMISSION_ENV: Readonly<Record<string, string>> = {
  ADMISSION_MAX_DEPTH_FAST: '100000000',
  ADMISSION_MAX_DEPTH_SLOW: '100000000',
  ADMISSION_MAX_DEPTH_PER_TENANT_FAST: '100000000',
  ADMISSION_MAX_DEPTH_PER_TENANT_SLOW: '100000000',
  ADMISSION_MAX_LAG: '100000000',
};

/**
 * The api as the submit benchmark runs it: compiled as `nx serve` runs it, on the stack's Kafka
 * and Postgres server but the scratch database `databaseUrl`, with production settings except
 * `SOURCE_PROBE=false`, no tracing, warnings-only logs and {@link ROOMY_ADMISSION_ENV}.
 * `nodeOptions` adds flags (the inspector for the profiled run).
 */
export function submitApi(stack: StackInfo, databaseUrl: string, logDir: string, nodeOptions: readonly string[] = []): ServiceProcess {
  return new ServiceProcess({
    app: 'api',
    instance: 'api-submit-bench',
    port: SUBMIT_API_PORT,
    logDir,
    nodeOptions,
    env: { ...stackEnv(stack), DATABASE_URL: databaseUrl, SOURCE_PROBE: 'false', LONGHAUL_TRACING: 'false', LOG_LEVEL: 'warn', ...ROOMY_ADMISSION_ENV },
  });
}
