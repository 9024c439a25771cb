import { join } from 'node:path';
import {
  dockerEngineReachable,
  ensureNativeStack,
  startDockerStack,
  startServices,
  workspaceRoot,
  type RunningServices,
  type StackInfo,
} from '@longhaul/testing';

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
  const services = await startServices({
    stack,
    logDir,
    env: { LONGHAUL_TRACING: 'true', PLACEHOLDER_STEP_MS: '200', STEP_POLL_MS: '50' },
  });
  globalThis.__longhaul.services = services;
  process.env['LONGHAUL_TEST_API_URL'] = services.api.url;
  process.env['LONGHAUL_TEST_DATABASE_URL'] = stack.databaseUrl;
  process.env['LONGHAUL_TEST_KAFKA_BROKERS'] = stack.kafkaBrokers;
  process.env['LONGHAUL_TEST_STACK'] = stack.mode;
  process.env['LONGHAUL_TEST_JAEGER_URL'] = stack.jaegerUrl;
  process.env['LONGHAUL_TEST_LOG_DIR'] = logDir;
}
