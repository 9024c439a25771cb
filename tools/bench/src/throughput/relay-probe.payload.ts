// The value of a relay probe row: a `TranscodeRequested.v1` payload for the job the submit
// benchmarks send, so a probe row weighs what the api's own request row weighs.

import { EventTypes, type StepRequestedV1 } from '@longhaul/contracts';
import { SUBMIT_REQUEST } from './submit.request';

/** The event type a probe row carries (its `type` column, the record's `eventType` header). */
export const RELAY_PROBE_EVENT_TYPE = EventTypes.TranscodeRequestedV1;

/** The payload JSON of the probe keyed `key` (a UUID, standing in for a job id). */
export function relayProbePayload(key: string, requestedAt: Date): string {
  const payload: StepRequestedV1 = {
    jobId: key,
    step: 'transcode',
    attempt: 1,
    jobType: SUBMIT_REQUEST.type,
    lane: 'fast',
    source: { ...SUBMIT_REQUEST.source },
    outputs: { renditions: [...SUBMIT_REQUEST.outputs.renditions] },
    inputs: {},
    metadata: null,
    requestedAt: requestedAt.toISOString(),
  };
  return JSON.stringify(payload);
}
