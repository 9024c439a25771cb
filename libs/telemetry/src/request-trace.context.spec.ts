import { EventEmitter } from 'node:events';
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { randomHex32, requestTraceContext } from './request-trace.context';
import { currentTraceparent } from './trace-context';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

function request(headers: Record<string, string> = {}): EventEmitter & { headers: Record<string, string> } {
  return Object.assign(new EventEmitter(), { headers });
}

/** Runs the middleware; resolves with the traceparent seen in `next` and in a later event of the request. */
function traced(req: ReturnType<typeof request>): Promise<{ inNext: string | null; inEvent: string | null }> {
  return new Promise((resolve) => {
    requestTraceContext()(req, new EventEmitter(), () => {
      const inNext = currentTraceparent();
      // As a body parser does: it listens from inside the middleware chain.
      req.on('end', () => resolve({ inNext, inEvent: currentTraceparent() }));
    });
    // The body arrives later, from the socket's own async context.
    context.with(ROOT_CONTEXT, () => setImmediate(() => req.emit('end')));
  });
}

describe('requestTraceContext', () => {
  it("continues the caller's trace, in the handler and in the request's later events", async () => {
    const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const { inNext, inEvent } = await traced(request({ traceparent: caller }));
    expect(inNext).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-00$/);
    expect(inNext).not.toContain('b7ad6b7169203331');
    expect(inEvent).toBe(inNext);
  });

  it('starts a new trace when the caller sent none, a different one for each request', async () => {
    const first = await traced(request());
    const second = await traced(request());
    expect(first.inNext).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(first.inNext!.slice(3, 35)).not.toBe(second.inNext!.slice(3, 35));
  });

  it('leaves a request alone that an instrumentation already traces', () => {
    const span = trace.wrapSpanContext({ traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: TraceFlags.SAMPLED });
    let seen: string | null = null;
    context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      requestTraceContext()(request(), new EventEmitter(), () => {
        seen = currentTraceparent();
      }),
    );
    expect(seen).toBe(`00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`);
  });
});

describe('randomHex32', () => {
  it('makes 32 hex digits, different each time, whose last 16 are never all zero', () => {
    const ids = Array.from({ length: 1000 }, randomHex32);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id.slice(16)).not.toBe('0'.repeat(16));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
