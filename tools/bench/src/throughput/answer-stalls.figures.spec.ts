import { answerStalls, expectedOccupiedSlots } from './answer-stalls.figures';

/** 10 s of answers every 0.5 ms, each taking `base` ms, with `slow(i)` overriding some. */
function run(slow: (i: number) => number | undefined, base = 5): { at: number[]; latency: number[] } {
  const at: number[] = [];
  const latency: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    at.push(i * 0.5);
    latency.push(slow(i) ?? base);
  }
  return { at, latency };
}

describe('answerStalls', () => {
  it('finds slow answers bunched into a few slots when a stall holds every request at once', () => {
    // Three stalls: 100 answers in a row slow at 2 s, 5 s and 8 s.
    const stalled = new Set([4000, 10_000, 16_000].flatMap((s) => Array.from({ length: 100 }, (_, k) => s + k)));
    const { at, latency } = run((i) => (stalled.has(i) ? 30 : undefined));
    const figures = answerStalls(at, latency)!;
    expect(figures.slowAnswers).toBe(300);
    expect(figures.slots).toBe(100);
    expect(figures.slotsWithSlow).toBeLessThanOrEqual(6);
    expect(figures.slotsIfSpread).toBeGreaterThan(90);
  });

  it('finds them spread when each slow answer is slow on its own account', () => {
    const { at, latency } = run((i) => (i % 97 === 0 ? 30 : undefined));
    const figures = answerStalls(at, latency)!;
    expect(figures.slotsWithSlow).toBeGreaterThan(90);
    expect(figures.slotsWithSlow).toBeLessThanOrEqual(figures.slots);
  });

  it('measures the longest silence between consecutive answers, whatever order they were listed in', () => {
    const at = [0, 1, 2, 50, 51, 3];
    const figures = answerStalls(at, [1, 1, 1, 40, 1, 1])!;
    expect(figures.longestSilenceMs).toBe(47);
  });

  it('answers null for fewer than two answers or lists of different lengths', () => {
    expect(answerStalls([1], [1])).toBeNull();
    expect(answerStalls([1, 2], [1])).toBeNull();
  });
});

describe('expectedOccupiedSlots', () => {
  it('is the number of throws while they are few, and the slots once they are many', () => {
    expect(expectedOccupiedSlots(1, 100)).toBeCloseTo(1);
    expect(expectedOccupiedSlots(0, 100)).toBe(0);
    expect(expectedOccupiedSlots(10_000, 100)).toBeCloseTo(100);
    expect(expectedOccupiedSlots(100, 100)).toBeCloseTo(63.4, 1);
  });
});
