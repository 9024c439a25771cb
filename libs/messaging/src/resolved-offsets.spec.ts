import { ResolvedOffsets } from './resolved-offsets';

describe('ResolvedOffsets', () => {
  it('commits the offset after the last one resolved on each partition', () => {
    const offsets = new ResolvedOffsets();
    offsets.resolved('job.events', 0, '41');
    offsets.resolved('job.events', 0, '42');
    offsets.resolved('job.events', 3, '7');
    expect(offsets.toCommit()).toEqual([
      { topic: 'job.events', partition: 0, offset: '43' },
      { topic: 'job.events', partition: 3, offset: '8' },
    ]);
  });

  it('forgets the partitions a new assignment took away', () => {
    const offsets = new ResolvedOffsets();
    offsets.resolved('job.events', 0, '42');
    offsets.resolved('job.events', 3, '7');
    offsets.resolved('job.lifecycle', 1, '9');
    offsets.assigned({ 'job.events': [3, 4] });
    expect(offsets.toCommit()).toEqual([{ topic: 'job.events', partition: 3, offset: '8' }]);
  });

  it('counts past what a number holds exactly', () => {
    const offsets = new ResolvedOffsets();
    offsets.resolved('t', 0, '9007199254740993');
    expect(offsets.toCommit()[0]!.offset).toBe('9007199254740994');
  });
});
