import { countLogMessages } from './log-message.count';

describe('countLogMessages', () => {
  it('counts JSON lines whose msg matches exactly', () => {
    const text = [
      JSON.stringify({ level: 30, msg: 'duplicate event suppressed', event_id: 'a' }),
      JSON.stringify({ level: 30, msg: 'event handled' }),
      JSON.stringify({ level: 30, msg: 'duplicate event suppressed', event_id: 'b' }),
      JSON.stringify({ level: 30, msg: 'duplicate event suppressed twice' }),
      JSON.stringify({ level: 30, msg: 'other', note: 'duplicate event suppressed' }),
      'Error: duplicate event suppressed (not JSON)',
      '',
    ].join('\n');
    expect(countLogMessages(text, 'duplicate event suppressed')).toBe(2);
  });
});
