import { holdsMessagesBefore, inboxCutoff, MESSAGE_CLOCK_SKEW_MS, messageCutoffMs } from './inbox-retention.policy';

describe('inbox retention policy', () => {
  it('deletes rows received before now minus the retention, and asks Kafka a little past that', () => {
    const cutoff = inboxCutoff(Date.UTC(2025, 0, 3), 2 * 86_400_000);
    expect(cutoff.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(messageCutoffMs(cutoff)).toBe(Date.UTC(2025, 0, 1) + MESSAGE_CLOCK_SKEW_MS);
  });

  it('sees an older message wherever a partition’s first offset after the instant is past its oldest offset', () => {
    expect(holdsMessagesBefore([{ low: 10, fromTimestamp: 10 }, { low: 0, fromTimestamp: 3 }])).toBe(true);
  });

  it('sees none when every partition starts at or after the instant, is empty, or holds only newer messages', () => {
    expect(holdsMessagesBefore([{ low: 10, fromTimestamp: 10 }, { low: 5, fromTimestamp: 5 }])).toBe(false);
    expect(holdsMessagesBefore([])).toBe(false);
  });
});
