import { elapsedMs, formatCount, formatDuration, formatPercent, formatRate, formatTime, shortId } from './display.format.js';

describe('formatTime', () => {
  it('writes the moment in local time, to the second', () => {
    const at = new Date(2025, 11, 1, 9, 5, 7, 450);
    expect(formatTime(at.toISOString())).toBe('2025-12-01 09:05:07');
  });

  it('shows a dash for none and the text itself when it is no time', () => {
    expect(formatTime(null)).toBe('—');
    expect(formatTime('soon')).toBe('soon');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [4230, '4.2 s'],
    [185_000, '3 min 05 s'],
    [7_380_000, '2 h 03 min'],
    [-5, '0 ms'],
    [null, '—'],
    [Number.NaN, '—'],
  ])('%s → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('elapsedMs', () => {
  it('measures to the end, or to now while it has none', () => {
    expect(elapsedMs('2025-12-01T10:00:00.000Z', '2025-12-01T10:00:02.500Z', 0)).toBe(2500);
    expect(elapsedMs('2025-12-01T10:00:00.000Z', null, Date.parse('2025-12-01T10:00:01.000Z'))).toBe(1000);
    expect(elapsedMs(null, null, 0)).toBeNull();
  });
});

describe('figures', () => {
  it('formats fractions, rates, counts and ids', () => {
    expect(formatPercent(0.424)).toBe('42 %');
    expect(formatPercent(1.2)).toBe('100 %');
    expect(formatPercent(null)).toBe('—');
    expect(formatRate(0)).toBe('0');
    expect(formatRate(1 / 60)).toBe('0.017/s');
    expect(formatRate(2.54)).toBe('2.5/s');
    expect(formatRate(120.4)).toBe('120/s');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(null)).toBe('—');
    expect(shortId('0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6')).toBe('0190f4c2');
  });
});
