import { join } from 'node:path';
import { ensureNativeStack, SIMULATED_SERVICE_ENV, startServices, workspaceRoot, type RunningServices } from '@longhaul/testing';

/**
 * The services run the simulated step mode, as in the integration suite: steps read and write
 * nothing, and a job's `sim.*` metadata makes a step slow, fail or fail for good. Retries come
 * within a second and a series has three attempts, so a step failing three times is
 * dead-lettered at once. Steps may run long (the tests slow some down to watch them live), so
 * the fast lane has no budget and deadlines are generous.
 */
const DASHBOARD_SERVICE_ENV: Record<string, string> = {
  ...SIMULATED_SERVICE_ENV,
  STEP_PROGRESS_INTERVAL_MS: '250',
  STEP_DEADLINE_MS: '60000',
  FAST_LANE_BUDGET_MS: '0',
  WEBHOOK_SIGNING_KEY: 'dashboard-tests-webhook-signing-key-0123456789',
};

declare global {
  var __longhaulDashboard: { services?: RunningServices } | undefined;
}

/**
 * Brings the native stack up (or reuses it) and starts the four services on ports 17000–17003
 * (logs in tmp/dashboard-logs). The api serves the dashboard, built with the services, and links
 * traces to the stack's Jaeger.
 */
export default async function globalSetup(): Promise<void> {
  const stack = ensureNativeStack();
  const logDir = join(workspaceRoot(), 'tmp', 'dashboard-logs');
  const env = { ...DASHBOARD_SERVICE_ENV, DASHBOARD_JAEGER_URL: stack.jaegerUrl };
  globalThis.__longhaulDashboard = {};
  const services = await startServices({ stack, logDir, basePort: 17_000, env });
  globalThis.__longhaulDashboard.services = services;
  process.env['LONGHAUL_TEST_API_URL'] = services.api.url;
  process.env['LONGHAUL_TEST_API_KEY'] = services.apiKey;
  process.env['LONGHAUL_TEST_JAEGER_URL'] = stack.jaegerUrl;
  // Some tests write to Kafka themselves (a message a consumer must dead-letter) and issue keys without the admin scope.
  process.env['LONGHAUL_TEST_KAFKA_BROKERS'] = stack.kafkaBrokers;
  process.env['LONGHAUL_TEST_DATABASE_URL'] = stack.databaseUrl;
  process.env['LONGHAUL_TEST_LOG_DIR'] = logDir;
}
