import type { Summary } from '../stats';
import { comparisonTable, formatRatio, NOT_MEASURED, ratioTarget, times } from './peer.comparison';

const s = (median: number, min = median, max = median): Summary => ({ median, min, max, n: 3 });
const rate = (v: number) => `${Math.round(v)}/s`;

describe('ratio formats', () => {
  it('prints ratios with two decimals below 10 and one above', () => {
    expect(times(2.414)).toBe('2.41×');
    expect(times(12.34)).toBe('12.3×');
    expect(times(Number.NaN)).toBe('–');
    expect(formatRatio(s(2.5, 2, 3))).toBe('2.50× (2.00–3.00×)');
  });
});

describe('ratioTarget', () => {
  const base = { name: 'Longhaul ÷ pg-boss', atLeast: 2, longhaulLabel: 'Longhaul submit', peerLabel: 'pg-boss enqueue', format: rate };

  it('is met when the ratio of the medians reaches the goal', () => {
    const check = ratioTarget({ ...base, longhaul: s(3000, 2900, 3100), peer: s(1000, 990, 1010) });
    expect(check.met).toBe(true);
    expect(check.target).toBe('≥ 2.00×');
    expect(check.measured).toBe('3.00× (2.87–3.13×): 3000/s ÷ 1000/s');
    expect(check.caveat).toBeUndefined();
  });

  it('is missed below the goal, with a caveat when the repetitions straddle it', () => {
    const check = ratioTarget({ ...base, longhaul: s(1900, 1800, 2200), peer: s(1000, 950, 1050) });
    expect(check.met).toBe(false);
    expect(check.caveat).toMatch(/repetitions disagree/);
  });

  it('says "not measured in this run", naming the missing side, when a figure is absent', () => {
    const check = ratioTarget({ ...base, longhaul: undefined, peer: s(1000) });
    expect(check.met).toBeNull();
    expect(check.measured).toBe(`${NOT_MEASURED} (Longhaul submit)`);
    expect(ratioTarget({ ...base, longhaul: s(1000), peer: s(0) }).measured).toBe(`${NOT_MEASURED} (pg-boss enqueue)`);
  });
});

describe('comparisonTable', () => {
  it('has a column per peer, Longhaul ÷ that peer, and marks what it could not divide', () => {
    const table = comparisonTable(
      [
        { what: 'jobs/s', longhaul: s(400), peers: [{ name: 'a', figure: s(100) }, { name: 'b', figure: undefined }] },
        { what: 'p99', longhaul: undefined, peers: [{ name: 'a', figure: s(10) }], lowerIsBetter: true },
      ],
      ['a', 'b'],
    );
    expect(table.columns).toEqual(['Longhaul ÷ peer', 'a', 'b']);
    expect(table.rows).toEqual([
      ['jobs/s', '4.00× (4.00–4.00×)', NOT_MEASURED],
      ['p99 (lower is better)', NOT_MEASURED, NOT_MEASURED],
    ]);
  });
});
