import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';

/** The parts of an HTTP request and response the middleware touches. */
interface RequestLike extends EventEmitter {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Gives every HTTP request a trace context when no HTTP instrumentation does (tracing off):
 * the caller's `traceparent` is continued, or a new trace id made, as a span context that records
 * nothing, so a job accepted now still carries its trace id into the outbox and the logs. With
 * tracing on, the instrumentation's server span is already active here and this does nothing.
 *
 * Why not keep the instrumentation with nothing sampled: it still built a span, its attributes
 * and its hooks for every request, a few per cent of the api's CPU per submit (its profile). The
 * request and response are bound to the context, as the instrumentation binds them, so handlers
 * that run from their events (the body parser's) stay in it.
 */
export function requestTraceContext(): (req: RequestLike, res: EventEmitter, next: () => void) => void {
  return (req, res, next) => {
    if (trace.getSpan(context.active())) return next();
    const incoming = propagation.extract(ROOT_CONTEXT, req.headers);
    const caller = trace.getSpanContext(incoming);
    const spanContext = {
      traceId: caller && trace.isSpanContextValid(caller) ? caller.traceId : randomHex32(),
      spanId: randomHex32().slice(16),
      traceFlags: TraceFlags.NONE,
    };
    const active = trace.setSpanContext(incoming, spanContext);
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}

/**
 * 32 random hex digits: a random UUID without its dashes (122 random bits; the version digit and
 * the variant's two bits are fixed, so the last 16 digits are never all zero, as a span id must
 * not be). Why not `randomBytes`: Node draws `randomUUID`'s entropy in bulk and hands it out from
 * a cache, while a synchronous `randomBytes` is a call into the CSPRNG per request, 3 % of the
 * api's thread per submit in its profile (`docs/benchmarks/tuning.md`, section 17).
 */
export function randomHex32(): string {
  return randomUUID().replaceAll('-', '');
}
