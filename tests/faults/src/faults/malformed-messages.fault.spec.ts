import { decodeMessage } from '@longhaul/messaging';
import { malformedMessages } from './malformed-messages.fault';

describe('malformedMessages', () => {
  const messages = malformedMessages('StepCompleted.v1');

  it('covers garbage, schema-breaking JSON and an unknown type, with and without headers', () => {
    expect(messages.map((m) => Object.keys(m.headers ?? {}).sort().join(','))).toEqual(['eventType,id', '', 'eventType,id', '', 'eventType,id', 'eventType']);
    expect(Buffer.from(messages[0]!.value as Buffer).toString('utf8')).toContain('\uFFFD');
  });

  it('is refused by the real decoder with the expected code', () => {
    const codes = messages.map((m) => {
      const result = decodeMessage('job.events', 0, {
        key: Buffer.from(m.key ?? ''),
        value: m.value === null ? null : Buffer.from(m.value),
        offset: '0',
        headers: m.headers,
      });
      return result.ok ? 'decoded' : result.code;
    });
    expect(codes).toEqual([
      'message_unparseable',
      'message_unparseable',
      'message_schema_invalid',
      'message_unparseable',
      'message_type_unknown',
      'message_unparseable',
    ]);
  });
});
