import type { JobStageView } from '@longhaul/contracts';
import { describeStage, traceUrl } from './job-summary.view.js';

describe('describeStage', () => {
  it('says where the job is, hop by hop', () => {
    const stage: JobStageView = { state: 'running', step: 'transcode', since: '2025-12-01T10:00:00.000Z', lane: 'fast', attempt: 2, worker: 'transcoder-1' };
    expect(describeStage(stage)).toBe('running · transcode · fast lane · attempt 2 · worker transcoder-1');
    expect(describeStage({ state: 'awaiting_relay', step: 'transcode', since: '', lane: 'slow', attempt: 1, waitingMs: 1500 })).toBe(
      'awaiting relay · transcode · slow lane · attempt 1 · waiting 1.5 s',
    );
    expect(describeStage({ state: 'completed', step: null, since: '' })).toBe('completed');
  });
});

describe('traceUrl', () => {
  const config = { jaegerUrl: 'http://127.0.0.1:16686' };
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

  it("links the trace on the Jaeger UI", () => {
    expect(traceUrl(config, traceId)).toBe(`http://127.0.0.1:16686/trace/${traceId}`);
  });

  it('gives no link without a trace, a Jaeger address, or for anything but a trace id', () => {
    expect(traceUrl(config, null)).toBeNull();
    expect(traceUrl(null, traceId)).toBeNull();
    expect(traceUrl(config, '../../admin')).toBeNull();
  });
});
