import { context, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the active span, or null when nothing is being traced. It is stored
 * on every outbox row so the trace continues in whichever service reads the event.
 */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ?? null;
}

/** The OpenTelemetry context that continues `traceparent` (the root context if absent). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The trace id inside a `traceparent` value, or null. */
export function traceIdOf(traceparent: string | null | undefined): string | null {
  const match = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/.exec(traceparent ?? '');
  return match?.[1] ?? null;
}

/** Trace and span id of the active span, for log lines. */
export function activeTraceIds(): { traceId: string; spanId: string } | null {
  const span = trace.getSpan(context.active());
  const ctx = span?.spanContext();
  if (!ctx || !trace.isSpanContextValid(ctx)) return null;
  return { traceId: ctx.traceId, spanId: ctx.spanId };
}
