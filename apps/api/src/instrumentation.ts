// Loaded before anything else so OpenTelemetry can patch http and pg before they are required.
import { startTelemetry } from '@longhaul/telemetry';
import { loadApiConfig } from './app.config';

const config = loadApiConfig();
export const stopTelemetry = startTelemetry({
  serviceName: 'api',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  enabled: config.LONGHAUL_TRACING,
});
