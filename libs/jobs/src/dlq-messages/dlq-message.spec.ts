import { dlqRecordOf, replayBlocker } from './dlq-message';

const EVENT_ID = '0193a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b';

describe('dlqRecordOf', () => {
  it('keeps the message byte for byte and reads the reason, origin and identity from its headers', () => {
    const value = Buffer.from('{"jobId":"j1"}');
    const record = dlqRecordOf('job.events.dlq', 3, {
      key: Buffer.from('j1'),
      value,
      offset: '42',
      timestamp: '1764979200000',
      headers: {
        id: Buffer.from(EVENT_ID),
        eventType: 'StepCompleted.v1',
        traceparent: [Buffer.from('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')],
        'dlq.error.code': Buffer.from('handler_failed'),
        'dlq.error.message': 'failed 5 times',
        'dlq.source': 'job.events/3/17',
        empty: undefined,
      },
    });
    expect(record).toEqual({
      dlqTopic: 'job.events.dlq',
      dlqPartition: 3,
      dlqOffset: '42',
      sourceTopic: 'job.events',
      source: 'job.events/3/17',
      errorCode: 'handler_failed',
      errorMessage: 'failed 5 times',
      eventId: EVENT_ID,
      eventType: 'StepCompleted.v1',
      key: 'j1',
      headers: {
        id: EVENT_ID,
        eventType: 'StepCompleted.v1',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        'dlq.error.code': 'handler_failed',
        'dlq.error.message': 'failed 5 times',
        'dlq.source': 'job.events/3/17',
      },
      value,
      deadLetteredAt: new Date(1764979200000),
    });
  });

  it('records keys and headers a text column cannot hold with U+FFFD in place of NUL and of bytes that are not UTF-8', () => {
    const record = dlqRecordOf('job.events.dlq', 0, {
      key: Buffer.from([0x6a, 0x00, 0x31]),
      value: Buffer.from([0x00, 0xff]),
      offset: '1',
      timestamp: '1',
      headers: { id: Buffer.from([0x61, 0xc3]), eventType: 'A\u0000B' },
    });
    expect(record).toMatchObject({ key: 'j\uFFFD1', eventId: 'a\uFFFD', eventType: 'A\uFFFDB', headers: { id: 'a\uFFFD', eventType: 'A\uFFFDB' } });
    expect(record.value).toEqual(Buffer.from([0x00, 0xff]));
  });

  it('records a message with no key, value or headers as such', () => {
    expect(dlqRecordOf('job.control.dlq', 0, { key: null, value: null, offset: '0', timestamp: '1' })).toMatchObject({
      sourceTopic: 'job.control', key: null, value: null, headers: {}, eventId: null, errorCode: null,
    });
  });
});

describe('replayBlocker', () => {
  const good = { eventId: EVENT_ID, eventType: 'StepCompleted.v1', key: 'j1', value: '{"a":1}' };

  it('lets a message with an event id, a type, a key and a JSON value be replayed', () => {
    expect(replayBlocker(good)).toBeNull();
  });

  it.each([
    [{ eventId: null }, "no 'id' header"],
    [{ eventId: 'evt-1' }, "its 'id' header is not a UUID"],
    [{ eventType: null }, "no 'eventType' header"],
    [{ key: null }, 'no key'],
    [{ value: null }, 'no value'],
    [{ value: '{"this is": not json' }, 'its value is not JSON'],
    [{ value: '{"a":"\\u0000"}' }, 'its value holds a NUL character'],
    [{ key: 'j\uFFFD1' }, 'its key is not text'],
    [{ eventType: 'Step\uFFFD.v1' }, "its 'eventType' header is not text"],
  ])('says why %j cannot be replayed', (change, reason) => {
    expect(replayBlocker({ ...good, ...change })).toBe(reason);
  });
});
