import { EventTypes, MessageHeaders } from '@longhaul/contracts';
import { decodeMessage, type RawMessage } from './message.decoder';

const jobId = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
const valid = {
  jobId,
  step: 'transcode',
  attempt: 1,
  worker: 'transcoder-1',
  startedAt: '2026-11-29T12:00:00.000Z',
};

function message(value: unknown, headers: Record<string, string> = {}): RawMessage {
  return {
    key: Buffer.from(jobId),
    value: value === null ? null : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
    offset: '7',
    headers: {
      [MessageHeaders.eventId]: Buffer.from('0192f0c4-0000-7000-8000-000000000001'),
      [MessageHeaders.eventType]: Buffer.from(EventTypes.StepStartedV1),
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
    },
  };
}

describe('decodeMessage', () => {
  it('decodes a valid event with its key, offset and trace context', () => {
    const result = decodeMessage('job.events', 3, message(valid, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.event).toMatchObject({ type: 'StepStarted.v1', key: jobId, partition: 3, offset: '7', payload: valid });
    expect(result.event.traceparent).toContain('4bf92f35');
  });

  it('classifies each kind of bad message with a stable code', () => {
    expect(decodeMessage('t', 0, message('{not json'))).toMatchObject({ ok: false, code: 'message_unparseable' });
    expect(decodeMessage('t', 0, message({ ...valid, attempt: 0 }))).toMatchObject({ ok: false, code: 'message_schema_invalid' });
    expect(decodeMessage('t', 0, message(valid, { [MessageHeaders.eventType]: 'Nope.v1' }))).toMatchObject({
      ok: false,
      code: 'message_type_unknown',
    });
    expect(decodeMessage('t', 0, { ...message(valid), headers: {} })).toMatchObject({ ok: false, code: 'message_unparseable', eventId: null });
    expect(decodeMessage('t', 0, message(null))).toMatchObject({ ok: false, code: 'message_unparseable' });
  });
});
