import { join } from 'node:path';
import { ensureNativeStack, issueApiKey, SIMULATED_SERVICE_ENV, startServices, WebhookReceiver, workspaceRoot, type ApiKeyRequest, type RunningServices } from '@longhaul/testing';

/** The suite's own tenant: what the fuzzer creates (jobs, webhook endpoints) stays out of every other suite's sight. */
export const FUZZ_API_KEY_REQUEST: ApiKeyRequest = { tenant: 'longhaul-fuzz', scopes: ['read', 'write', 'admin'], name: 'fuzz' };

/**
 * The simulated step mode (jobs the fuzzer submits run in seconds and touch no media), with:
 * - a per-key rate limit the fuzzer never reaches, so its requests are answered, not 429'd;
 * - webhook URLs on loopback over http allowed: the fuzzer's hooks point every webhook URL it
 *   sends at the suite's receiver on 127.0.0.1 (`loopback-urls.hooks.py`), so endpoints get
 *   created and their deliveries answered here, at once, instead of calling out or piling up
 *   retries for later suites.
 */
const FUZZ_SERVICE_ENV: Record<string, string> = {
  ...SIMULATED_SERVICE_ENV,
  LONGHAUL_TRACING: 'false',
  RATE_LIMIT_REQUESTS: '1000000',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
};

declare global {
  var __longhaulFuzz: { services?: RunningServices; receiver?: WebhookReceiver } | undefined;
}

/**
 * Brings the native stack up (or reuses it), starts a webhook receiver (answering 204) and the
 * four services on ports 16000–16003.
 */
export default async function globalSetup(): Promise<void> {
  const stack = ensureNativeStack();
  const logDir = join(workspaceRoot(), 'tmp', 'fuzz-logs');
  const receiver = await new WebhookReceiver().start();
  globalThis.__longhaulFuzz = { receiver };
  // Read by the hooks in the schemathesis process, which inherits this environment.
  process.env['LONGHAUL_FUZZ_WEBHOOK_URL'] = `${receiver.url}/fuzz-webhook`;
  // Issued here rather than by startServices: the hooks need the key's id to keep it from being revoked.
  const key = await issueApiKey({ databaseUrl: stack.databaseUrl, ...FUZZ_API_KEY_REQUEST });
  process.env['LONGHAUL_FUZZ_API_KEY_ID'] = key.id;
  const services = await startServices({ stack, logDir, basePort: 16_000, env: FUZZ_SERVICE_ENV, apiKey: { key: key.key } });
  globalThis.__longhaulFuzz.services = services;
  process.env['LONGHAUL_TEST_API_URL'] = services.api.url;
  process.env['LONGHAUL_TEST_API_KEY'] = services.apiKey;
  process.env['LONGHAUL_TEST_LOG_DIR'] = logDir;
}
