import { join } from 'node:path';
import {
  dockerEngineReachable,
  ensureNativeStack,
  startDockerStack,
  stackEnv,
  SIMULATED_SERVICE_ENV,
  startServices,
  workspaceRoot,
  type RunningServices,
  type StackInfo,
} from '@longhaul/testing';

/**
 * The services run the simulated step mode with short timings, so retries, deadlines, the
 * fast lane's budget, leases and the watchdog all act within seconds.
 */
const INTEGRATION_SERVICE_ENV: Record<string, string> = {
  ...SIMULATED_SERVICE_ENV,
  LONGHAUL_EFFECT_LEDGER: 'true',
  // Webhooks go to a receiver the test runs on 127.0.0.1, over http; retries come within a second.
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_SIGNING_KEY: 'integration-tests-webhook-signing-key-0123456789',
  WEBHOOK_TIMEOUT_MS: '1500',
  DELIVERY_RETRY_BASE_MS: '200',
  DELIVERY_RETRY_CAP_MS: '1000',
  DELIVERY_POLL_MS: '100',
};

declare global {
  var __longhaul: { services?: RunningServices; stopDocker?: () => Promise<void> } | undefined;
}

/**
 * Brings up the stack — natively (the default, and what CI runs) or with testcontainers when
 * `LONGHAUL_STACK=docker` or a Docker engine is reachable and `LONGHAUL_STACK` is unset — then
 * starts the four services as processes. Tests find them through environment variables.
 */
export default async function globalSetup(): Promise<void> {
  const wanted = process.env['LONGHAUL_STACK'] ?? (dockerEngineReachable() ? 'docker' : 'native');
  let stack: StackInfo;
  globalThis.__longhaul = {};
  if (wanted === 'docker') {
    const docker = await startDockerStack();
    stack = docker.stack;
    globalThis.__longhaul.stopDocker = docker.stop;
  } else {
    stack = ensureNativeStack();
  }
  const logDir = join(workspaceRoot(), 'tmp', 'integration-logs');
  const services = await startServices({ stack, logDir, env: INTEGRATION_SERVICE_ENV });
  globalThis.__longhaul.services = services;
  process.env['LONGHAUL_TEST_API_URL'] = services.api.url;
  // Every api on the suite's database accepts it: the suite's own and the extra ones tests start.
  process.env['LONGHAUL_TEST_API_KEY'] = services.apiKey;
  process.env['LONGHAUL_TEST_DATABASE_URL'] = stack.databaseUrl;
  process.env['LONGHAUL_TEST_KAFKA_BROKERS'] = stack.kafkaBrokers;
  process.env['LONGHAUL_TEST_STACK'] = stack.mode;
  process.env['LONGHAUL_TEST_JAEGER_URL'] = stack.jaegerUrl;
  process.env['LONGHAUL_TEST_MAILPIT_URL'] = stack.mailpitUrl;
  process.env['LONGHAUL_TEST_LOG_DIR'] = logDir;
  // What a test needs to start one more instance like these, or to kill one by PID.
  process.env['LONGHAUL_TEST_SERVICE_ENV'] = JSON.stringify({ ...stackEnv(stack), ...INTEGRATION_SERVICE_ENV });
  process.env['LONGHAUL_TEST_PIDS'] = JSON.stringify(Object.fromEntries(services.all.map((s) => [s.options.app, s.pid])));
  // Where each service answers `/metrics` and `/readyz`.
  process.env['LONGHAUL_TEST_SERVICE_URLS'] = JSON.stringify(Object.fromEntries(services.all.map((s) => [s.options.app, s.url])));
}
