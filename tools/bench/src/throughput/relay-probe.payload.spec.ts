import { randomUUID } from 'node:crypto';
import { StepRequestedV1Schema } from '@longhaul/contracts';
import { relayProbePayload } from './relay-probe.payload';

describe('relayProbePayload', () => {
  it("is a valid TranscodeRequested.v1 payload for the submit benchmarks' job, keyed by the probe", () => {
    const key = randomUUID();
    const parsed = StepRequestedV1Schema.parse(JSON.parse(relayProbePayload(key, new Date('2030-01-01T00:00:00Z'))));
    expect(parsed.jobId).toBe(key);
    expect(parsed.step).toBe('transcode');
    expect(parsed.lane).toBe('fast');
    expect(parsed.requestedAt).toBe('2030-01-01T00:00:00.000Z');
  });
});
