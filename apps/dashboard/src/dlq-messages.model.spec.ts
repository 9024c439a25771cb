import { displayValue, dlqMessageState, headerEntries, replayAnswerText } from './dlq-messages.model.js';
import { formatTime } from './display.format.js';

describe('dlqMessageState', () => {
  it('tells replayed, pending and not replayable apart; a replayed message stays replayed', () => {
    expect(dlqMessageState({ replayedAt: null, notReplayable: null })).toBe('pending');
    expect(dlqMessageState({ replayedAt: null, notReplayable: 'its value is not JSON' })).toBe('not-replayable');
    expect(dlqMessageState({ replayedAt: '2025-12-01T10:00:00.000Z', notReplayable: null })).toBe('replayed');
    expect(dlqMessageState({ replayedAt: '2025-12-01T10:00:00.000Z', notReplayable: 'no key' })).toBe('replayed');
  });
});

describe('replayAnswerText', () => {
  it('says a 202 sent the message back to its topic', () => {
    expect(replayAnswerText(202, { sourceTopic: 'job.events', replayedAt: '2025-12-01T10:00:00.000Z' })).toBe('202 Accepted: sent back to job.events through the outbox.');
  });

  it('says a 200 sent nothing, and since when it was replayed', () => {
    const at = '2025-12-01T10:00:00.000Z';
    expect(replayAnswerText(200, { sourceTopic: 'job.events', replayedAt: at })).toBe(`200 OK: already replayed at ${formatTime(at)}; nothing sent again.`);
    expect(replayAnswerText(200, { sourceTopic: 'job.events', replayedAt: null })).toBe('200 OK: already replayed; nothing sent again.');
  });
});

describe('displayValue', () => {
  it('indents compact JSON, as the services write it', () => {
    expect(displayValue('{"jobId":"abc","n":[1,2]}')).toBe('{\n  "jobId": "abc",\n  "n": [\n    1,\n    2\n  ]\n}');
  });

  it('shows anything else exactly as it came', () => {
    expect(displayValue('<not json>')).toBe('<not json>');
    expect(displayValue('{"jobId": "abc"}')).toBe('{"jobId": "abc"}');
    // Re-serialised, these digits would change: the operator must see what was sent.
    expect(displayValue('{"n":12345678901234567890}')).toBe('{"n":12345678901234567890}');
    expect(displayValue('')).toBe('');
  });

  it('says when there was no value', () => {
    expect(displayValue(null)).toBe('(no value)');
  });
});

describe('headerEntries', () => {
  it("lists the message's own headers by name, then the dlq.* ones the consumer added", () => {
    expect(headerEntries({ 'dlq.source': 'job.events/0/7', eventType: 'StepExploded.v9', 'dlq.error.code': 'message_type_unknown', id: 'e1' })).toEqual([
      ['eventType', 'StepExploded.v9'],
      ['id', 'e1'],
      ['dlq.error.code', 'message_type_unknown'],
      ['dlq.source', 'job.events/0/7'],
    ]);
  });
});
