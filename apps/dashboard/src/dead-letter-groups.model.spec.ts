import type { DeadLetterGroupView, DeadLetterView } from '@longhaul/contracts';
import { groupDeadLetters } from './dead-letter-groups.model.js';

const item = (id: string, fingerprint: string): DeadLetterView =>
  ({ id, fingerprint, step: 'transcode', error: { code: 'simulated_failure', message: 'boom', retryable: true }, createdAt: '2025-12-01T10:00:00.000Z' }) as unknown as DeadLetterView;
const group = (fingerprint: string, count: number): DeadLetterGroupView => ({
  fingerprint,
  step: 'transcode',
  errorCode: 'simulated_failure',
  sampleMessage: 'boom',
  count,
  firstAt: '2025-12-01T09:00:00.000Z',
  lastAt: '2025-12-01T10:00:00.000Z',
});

describe('groupDeadLetters', () => {
  it('puts each listed dead letter under its group, in the groups order, counting the unlisted', () => {
    const sections = groupDeadLetters({ groups: [group('aaaa', 5), group('bbbb', 1)], items: [item('1', 'bbbb'), item('2', 'aaaa'), item('3', 'aaaa')] });
    expect(sections.map((s) => [s.group.fingerprint, s.items.map((i) => i.id), s.unlisted])).toEqual([
      ['aaaa', ['2', '3'], 3],
      ['bbbb', ['1'], 0],
    ]);
  });

  it('gives an item whose group is missing a group of its own', () => {
    const [section] = groupDeadLetters({ groups: [], items: [item('1', 'cccc')] });
    expect(section!.group).toMatchObject({ fingerprint: 'cccc', errorCode: 'simulated_failure', count: 1 });
    expect(section!.unlisted).toBe(0);
  });
});
