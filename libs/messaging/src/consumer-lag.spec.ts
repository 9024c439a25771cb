import { partitionLags, topicLag } from './consumer-lag';

const marks = (...pairs: Array<[low: number, high: number]>) => pairs.map(([low, high], partition) => ({ partition, low: String(low), high: String(high) }));
const commits = (...offsets: number[]) => offsets.map((offset, partition) => ({ partition, offset: String(offset) }));

describe('consumer lag', () => {
  it('sums high watermark minus committed offset over the partitions', () => {
    expect(topicLag(commits(5, 10, 0), marks([0, 10], [0, 10], [0, 3]))).toBe(5 + 0 + 3);
  });

  it("counts from the low watermark where the group committed nothing ('-1')", () => {
    expect(topicLag(commits(-1, -1), marks([0, 7], [4, 9]))).toBe(7 + 5);
  });

  it('counts from the low watermark for a partition the group has no entry for', () => {
    expect(topicLag(commits(3), marks([0, 3], [2, 8]))).toBe(0 + 6);
    expect(topicLag([], marks([0, 4]))).toBe(4);
  });

  it('counts from the low watermark when the commit points at deleted messages', () => {
    expect(topicLag(commits(2), marks([10, 15]))).toBe(5);
  });

  it('never goes negative (a commit read ahead of a stale watermark)', () => {
    expect(topicLag(commits(12), marks([0, 10]))).toBe(0);
  });

  it('is zero for an empty topic', () => {
    expect(topicLag(commits(-1, -1), marks([0, 0], [0, 0]))).toBe(0);
  });

  it('keeps the lag of each partition apart', () => {
    expect(partitionLags(commits(5, -1), marks([0, 10], [2, 4]))).toEqual([
      { partition: 0, lag: 5 },
      { partition: 1, lag: 2 },
    ]);
  });
});
