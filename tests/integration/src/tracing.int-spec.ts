import type { JobView } from '@longhaul/contracts';
import { waitFor } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; value: unknown }>;
}
interface JaegerTrace {
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/**
 * A trace from Jaeger's query API, once `complete` says everything expected has been exported
 * and every span's parent is there too: spans are exported in batches as they END, and a parent
 * (a consume span, a request) ends after its children, so it may arrive a batch later. A parent
 * that never arrives fails the wait.
 */
async function jaegerTrace(traceId: string, complete: (trace: JaegerTrace) => boolean): Promise<JaegerTrace> {
  return waitFor(
    async () => {
      const response = await fetch(`${env.jaegerUrl}/api/traces/${traceId}`);
      if (!response.ok) return null;
      const trace = ((await response.json()) as { data: JaegerTrace[] }).data[0];
      if (!trace || !complete(trace)) return null;
      const ids = new Set(trace.spans.map((span) => span.spanID));
      return trace.spans.every((span) => !parentOf(span) || ids.has(parentOf(span)!.spanID)) ? trace : null;
    },
    { timeoutMs: 60_000, intervalMs: 1000, description: `trace ${traceId} to be complete in Jaeger` },
  );
}

const service = (trace: JaegerTrace, span: JaegerSpan) => trace.processes[span.processID]!.serviceName;
const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;
const parentOf = (span: JaegerSpan) => span.references.find((r) => r.refType === 'CHILD_OF' && r.traceID === span.traceID);

/** The span and its ancestors within the trace, nearest first. */
function ancestry(trace: JaegerTrace, span: JaegerSpan): JaegerSpan[] {
  const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
  const chain = [span];
  for (let ref = parentOf(span); ref; ref = parentOf(chain.at(-1)!)) {
    const parent = byId.get(ref.spanID);
    if (!parent) break;
    chain.push(parent);
  }
  return chain;
}

describe('one trace per job in Jaeger', () => {
  it('holds api, transcoder, thumbnailer and notifier spans under the submit, a span per attempt, every parent inside the trace', async () => {
    const { body: submitted } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '1' }));
    const job: JobView = await env.api.waitForStatus(submitted.id, 'completed');
    expect(job.traceId).toBe(submitted.traceId);

    const trace = await jaegerTrace(job.traceId!, (t) => {
      const names = t.spans.map((s) => s.operationName);
      return names.filter((n) => n === 'step transcode').length === 2 && names.includes('step thumbnail') && t.spans.some((s) => service(t, s) === 'notifier');
    });
    expect(new Set(trace.spans.map((s) => service(trace, s)))).toEqual(new Set(['api', 'transcoder', 'thumbnailer', 'notifier']));

    // Exactly one root, the submit request; every other span's parent is in the trace.
    const ids = new Set(trace.spans.map((s) => s.spanID));
    const roots = trace.spans.filter((s) => !parentOf(s));
    expect(roots).toHaveLength(1);
    expect(service(trace, roots[0]!)).toBe('api');
    expect(roots[0]!.operationName).toMatch(/^POST/);
    for (const span of trace.spans) {
      const parent = parentOf(span);
      if (parent) expect(ids.has(parent.spanID)).toBe(true);
    }

    // A span per transcode attempt, each reached through its Kafka consume span; the retry
    // through the api's dispatch of attempt 2.
    const attempts = trace.spans.filter((s) => s.operationName === 'step transcode');
    expect(attempts.map((s) => Number(tag(s, 'longhaul.step.attempt'))).sort()).toEqual([1, 2]);
    for (const attempt of attempts) {
      const chain = ancestry(trace, attempt);
      expect(service(trace, attempt)).toBe('transcoder');
      expect(chain.at(-1)).toBe(roots[0]);
      expect(chain.some((s) => s.operationName === 'transcode.requests.fast process' && service(trace, s) === 'transcoder')).toBe(true);
    }
    const retry = attempts.find((s) => Number(tag(s, 'longhaul.step.attempt')) === 2)!;
    expect(ancestry(trace, retry).some((s) => s.operationName === 'dispatch transcode' && service(trace, s) === 'api')).toBe(true);

    const thumbnail = trace.spans.find((s) => s.operationName === 'step thumbnail')!;
    expect(service(trace, thumbnail)).toBe('thumbnailer');
    expect(ancestry(trace, thumbnail).at(-1)).toBe(roots[0]);
    const notified = trace.spans.filter((s) => s.operationName === 'job.lifecycle process');
    expect(notified.length).toBeGreaterThan(0);
    for (const span of notified) expect(ancestry(trace, span).at(-1)).toBe(roots[0]);
  });

  it("links a dead letter's replay request and the replayed attempt in the job's trace, both ways", async () => {
    const { body: submitted } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '3' }));
    const failed = await env.api.waitForStatus(submitted.id, 'failed');
    const replay = await env.api.request('POST', `/v1/dead-letters/${failed.stage.deadLetterId}/replay`);
    expect(replay.status).toBe(202);
    await env.api.waitForStatus(submitted.id, 'completed');

    const trace = await jaegerTrace(submitted.traceId!, (t) =>
      t.spans.some((s) => s.operationName === 'step transcode' && Number(tag(s, 'longhaul.step.attempt')) === 4),
    );
    const dispatch = trace.spans.find((s) => s.operationName === 'dispatch transcode' && Number(tag(s, 'longhaul.step.attempt')) === 4)!;
    expect(dispatch).toBeDefined();
    const replayedAttempt = trace.spans.find((s) => s.operationName === 'step transcode' && Number(tag(s, 'longhaul.step.attempt')) === 4)!;
    expect(ancestry(trace, replayedAttempt)).toContain(dispatch);

    // The dispatch links to the replay request, which is a trace of its own and links back.
    const link = dispatch.references.find((r) => r.traceID !== submitted.traceId);
    expect(link).toBeDefined();
    const requestTrace = await jaegerTrace(link!.traceID, (t) => t.spans.some((s) => s.spanID === link!.spanID));
    const request = requestTrace.spans.find((s) => s.spanID === link!.spanID)!;
    expect(service(requestTrace, request)).toBe('api');
    expect(request.operationName).toMatch(/^POST/);
    expect(request.references.some((r) => r.traceID === submitted.traceId && r.spanID === dispatch.spanID)).toBe(true);
  });
});
