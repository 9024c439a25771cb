import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Options of {@link startTelemetry}. */
export interface TelemetryOptions {
  /** `service.name` on every span: `api`, `transcoder`, … */
  serviceName: string;
  /** OTLP/HTTP base URL; traces go to `<endpoint>/v1/traces`. */
  otlpEndpoint: string;
  /** When false, the W3C propagator still works but nothing is exported. */
  enabled: boolean;
}

/**
 * Starts the OpenTelemetry SDK. Must run before NestJS, pg and http are loaded (each app's
 * `instrumentation.ts` is its first import) so the instrumentations can patch them.
 * Returns a function that flushes and stops the SDK.
 */
export function startTelemetry(options: TelemetryOptions): () => Promise<void> {
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    traceExporter: options.enabled
      ? new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })
      : undefined,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz)/.test(req.url ?? '') }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return () => sdk.shutdown();
}
