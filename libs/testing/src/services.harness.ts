import { ServiceProcess } from './service.process';
import type { StackInfo } from './stack.harness';

/** The four Longhaul services running against one stack. */
export interface RunningServices {
  api: ServiceProcess;
  transcoder: ServiceProcess;
  thumbnailer: ServiceProcess;
  notifier: ServiceProcess;
  all: ServiceProcess[];
}

/** Options of {@link startServices}. */
export interface StartServicesOptions {
  stack: StackInfo;
  logDir: string;
  /** First of four consecutive ports. Test ports stay clear of a developer's own services. @defaultValue 13000 */
  basePort?: number;
  /** Extra environment for every service. */
  env?: Record<string, string>;
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
  return { ...services, all };
}

/** Stops every service gracefully. */
export async function stopServices(services: RunningServices | undefined): Promise<void> {
  if (!services) return;
  await Promise.all(services.all.map((s) => s.stop('SIGTERM')));
}
