// Loaded before anything else so OpenTelemetry can patch http and pg before they are required.
import { startTelemetry } from '@longhaul/telemetry';
import { loadThumbnailerConfig } from './app.config';

const config = loadThumbnailerConfig();
export const stopTelemetry = startTelemetry({
  serviceName: 'thumbnailer',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  enabled: config.LONGHAUL_TRACING,
});
