// Loaded before anything else so OpenTelemetry can patch http and pg before they are required.
// It reads only the tracing settings: the app config pulls in the whole app.
import { loadTelemetryConfig } from '@longhaul/config';
import { startTelemetry } from '@longhaul/telemetry';

const telemetry = loadTelemetryConfig('notifier');
export const stopTelemetry = startTelemetry({
  serviceName: 'notifier',
  otlpEndpoint: telemetry.endpoint,
  enabled: telemetry.enabled,
});
