import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Options of {@link startTelemetry}. */
export interface TelemetryOptions {
  /** `service.name` on every span: `api`, `transcoder`, … */
  serviceName: string;
  /** OTLP/HTTP base URL; traces go to `<endpoint>/v1/traces`. */
  otlpEndpoint: string;
  /**
   * When false, nothing is recorded or exported, but trace ids are still made and propagated:
   * a job still has its `traceId`, and logs still carry it.
   */
  enabled: boolean;
}

/**
 * Starts tracing. Must run before NestJS, pg and http are loaded (each app's `instrumentation.ts`
 * is its first import) so the instrumentations can patch them. Returns a function that flushes
 * and stops it.
 *
 * A tracer provider with only the pieces we use, not `@opentelemetry/sdk-node`: that package
 * loads every exporter and propagator it can configure (gRPC, protobuf, Zipkin, Prometheus…),
 * about 30 MiB of heap in each service for code that never runs. The OTLP exporter itself is
 * loaded only when tracing is on.
 */
export function startTelemetry(options: TelemetryOptions): () => Promise<void> {
  const spanProcessors: SpanProcessor[] = options.enabled ? [new BatchSpanProcessor(otlpExporter(options.otlpEndpoint))] : [];
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors,
    // Off: every span is a non-recording one that only carries its context. Recording spans with
    // no processor to take them cost the api about a tenth of its CPU per submit (the submit
    // benchmark's profile), for nothing.
    ...(options.enabled ? {} : { sampler: new AlwaysOffSampler() }),
  });
  // Global tracer provider, AsyncLocalStorage context manager and the W3C trace-context and
  // baggage propagators: what `traceparent` on the outbox and in Kafka headers rely on.
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    // Only with tracing on: with nothing recorded, wrapping every request and query cost the api
    // several per cent of its CPU (its profiles). Requests then get their trace context from
    // `requestTraceContext` (the services' HTTP bootstrap), and a query's span would only ever
    // have been a leaf.
    instrumentations: options.enabled
      ? [
          // Probes and scrapes arrive every few seconds and would bury the job traces.
          new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? '') }),
          new PgInstrumentation({ requireParentSpan: true }),
        ]
      : [],
  });
  return async () => {
    unregister();
    await provider.shutdown();
  };
}

function otlpExporter(endpoint: string) {
  // Required here rather than imported at the top: with tracing off it is never loaded.
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  return new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
}
