import { issueApiKey, type ApiKeyScope } from './api-key.issuer';
import { ServiceProcess } from './service.process';
import type { StackInfo } from './stack.harness';

/** The four Longhaul services running against one stack. */
export interface RunningServices {
  api: ServiceProcess;
  transcoder: ServiceProcess;
  thumbnailer: ServiceProcess;
  notifier: ServiceProcess;
  all: ServiceProcess[];
  /**
   * An API key every api on the stack's database accepts (`Authorization: Bearer <key>`): the one
   * given in {@link StartServicesOptions.apiKey}, or the one issued once the api was up.
   */
  apiKey: string;
}

/** The tenant whose key {@link startServices} issues unless told otherwise. */
export const TEST_TENANT = 'longhaul-test';

/**
 * The key {@link startServices} issues: every scope, so a suite can call any route, and a rate
 * limit of its own far above the api's default (600 a minute), because a whole suite polls
 * through this one key: waits every 200 ms, the fault run's retries through outages.
 */
export const TEST_API_KEY_REQUEST: Readonly<ApiKeyRequest> = { tenant: TEST_TENANT, scopes: ['read', 'write', 'admin'], name: 'test services', rateLimit: 100_000 };

/** A key to issue: for which tenant, with what scopes. */
export interface ApiKeyRequest {
  tenant: string;
  /** @defaultValue the keys command's default (`read`, `write`) */
  scopes?: ApiKeyScope[];
  name?: string;
  /** Requests per rate-limit window (a minute by default). @defaultValue the api's default */
  rateLimit?: number;
}

/** Options of {@link startServices}. */
export interface StartServicesOptions {
  stack: StackInfo;
  logDir: string;
  /** First of four consecutive ports. Test ports stay clear of a developer's own services. @defaultValue 13000 */
  basePort?: number;
  /** Extra environment for every service. */
  env?: Record<string, string>;
  /**
   * The API key to hand back: `{ key }` uses that one; otherwise a key is issued for `tenant`
   * with `scopes` once the api has started (and so migrated its database).
   * @defaultValue {@link TEST_API_KEY_REQUEST}: tenant `longhaul-test`, scopes read, write and admin
   */
  apiKey?: { key: string } | ApiKeyRequest;
}

/** The environment that points a service at `stack`. */
export function stackEnv(stack: StackInfo): Record<string, string> {
  return {
    DATABASE_URL: stack.databaseUrl,
    KAFKA_BROKERS: stack.kafkaBrokers,
    OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpHttpUrl,
    SMTP_HOST: stack.smtpHost,
    SMTP_PORT: String(stack.smtpPort),
    KAFKA_CONNECT_URL: stack.connectUrl,
  };
}

/** Starts api, transcoder, thumbnailer and notifier as processes and waits until all are ready. */
export async function startServices(options: StartServicesOptions): Promise<RunningServices> {
  const base = options.basePort ?? 13_000;
  const env = { LOG_LEVEL: 'info', ...stackEnv(options.stack), ...options.env };
  const make = (app: string, offset: number) => new ServiceProcess({ app, port: base + offset, env, logDir: options.logDir });
  const services = {
    api: make('api', 0),
    transcoder: make('transcoder', 1),
    thumbnailer: make('thumbnailer', 2),
    notifier: make('notifier', 3),
  };
  const all = Object.values(services);
  // One at a time: four cold starts at once on two cores only slow each other down.
  for (const service of all) await service.start();
  const wanted = options.apiKey ?? TEST_API_KEY_REQUEST;
  let apiKey: string;
  try {
    apiKey = 'key' in wanted ? wanted.key : (await issueApiKey({ databaseUrl: options.stack.databaseUrl, ...wanted })).key;
  } catch (error) {
    await Promise.all(all.map((s) => s.stop('SIGTERM')));
    throw error;
  }
  return { ...services, all, apiKey };
}

/** Stops every service gracefully. */
export async function stopServices(services: RunningServices | undefined): Promise<void> {
  if (!services) return;
  await Promise.all(services.all.map((s) => s.stop('SIGTERM')));
}
