import { decideAdmission, retryAfterFor } from './admission.policy';

const limits = { maxDepth: 100, maxLag: 1_000 };
const lane = (depth: number, lag: number | null, throughputPerSecond = 0) => ({ depth, lag, throughputPerSecond });

describe('admission policy', () => {
  it('admits when there is no sample yet', () => {
    expect(decideAdmission(null, limits)).toEqual({ admit: true });
    expect(decideAdmission(undefined, limits)).toEqual({ admit: true });
  });

  it('admits while every figure is under its limit', () => {
    expect(decideAdmission(lane(99, 999), limits)).toEqual({ admit: true });
    expect(decideAdmission(lane(0, 0), limits)).toEqual({ admit: true });
  });

  it('refuses once the depth reaches its limit', () => {
    expect(decideAdmission(lane(100, 0, 5), limits)).toEqual({
      admit: false,
      breaches: [{ limit: 'depth', figure: 100, max: 100 }],
      retryAfterSeconds: 1,
    });
  });

  it('refuses once the lag reaches its limit', () => {
    expect(decideAdmission(lane(0, 1_200, 10), limits)).toEqual({
      admit: false,
      breaches: [{ limit: 'lag', figure: 1_200, max: 1_000 }],
      retryAfterSeconds: 21, // 201 to drain at 10/s
    });
  });

  it('judges by depth alone when the lag is unknown', () => {
    expect(decideAdmission(lane(10, null), limits)).toEqual({ admit: true });
    expect(decideAdmission(lane(150, null, 10), limits)).toMatchObject({ admit: false, breaches: [{ limit: 'depth' }], retryAfterSeconds: 6 });
  });

  it('names every limit passed and waits for the slowest to drain', () => {
    const decision = decideAdmission(lane(130, 1_500, 20), limits);
    expect(decision).toEqual({
      admit: false,
      breaches: [
        { limit: 'depth', figure: 130, max: 100 },
        { limit: 'lag', figure: 1_500, max: 1_000 },
      ],
      retryAfterSeconds: 26, // lag: 501 at 20/s; depth would be 31 at 20/s → 2
    });
  });

  describe('Retry-After', () => {
    it('is the excess over the throughput, rounded up', () => {
      expect(retryAfterFor(10, 4)).toBe(3);
      expect(retryAfterFor(8, 4)).toBe(2);
    });

    it('assumes at least one item per second drains', () => {
      expect(retryAfterFor(7, 0)).toBe(7);
      expect(retryAfterFor(7, 0.2)).toBe(7);
      expect(retryAfterFor(7, Number.NaN)).toBe(7);
    });

    it('is clamped to 1..60 s', () => {
      expect(retryAfterFor(1, 1_000)).toBe(1);
      expect(retryAfterFor(0, 1)).toBe(1);
      expect(retryAfterFor(100_000, 1)).toBe(60);
    });
  });
});
