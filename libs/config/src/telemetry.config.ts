import { CommonEnvSchema } from './common.config';
import { loadConfig } from './config.loader';

const TelemetryEnvSchema = CommonEnvSchema.pick({ OTEL_EXPORTER_OTLP_ENDPOINT: true, LONGHAUL_TRACING: true });

/**
 * The tracing settings alone. A service's instrumentation reads them before anything else is
 * loaded: importing the full app config would pull in NestJS, kafkajs and pg before
 * OpenTelemetry could patch them, and their spans would silently go missing.
 */
export function loadTelemetryConfig(service: string, env: NodeJS.ProcessEnv = process.env): { endpoint: string; enabled: boolean } {
  const config = loadConfig(service, TelemetryEnvSchema, env);
  return { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, enabled: config.LONGHAUL_TRACING };
}
