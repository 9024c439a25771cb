// Loaded before anything else so OpenTelemetry can patch http and pg before they are required.
import { startTelemetry } from '@longhaul/telemetry';
import { loadNotifierConfig } from './app.config';

const config = loadNotifierConfig();
export const stopTelemetry = startTelemetry({
  serviceName: 'notifier',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  enabled: config.LONGHAUL_TRACING,
});
