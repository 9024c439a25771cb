// Loaded before anything else so OpenTelemetry can patch http and pg before they are required.
import { startTelemetry } from '@longhaul/telemetry';
import { loadTranscoderConfig } from './app.config';

const config = loadTranscoderConfig();
export const stopTelemetry = startTelemetry({
  serviceName: 'transcoder',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  enabled: config.LONGHAUL_TRACING,
});
