import { ErrorCodes } from '@longhaul/contracts';

import { assertValidRange, rangeHeader, resolveRange } from './byte-range.policy';

describe('byte ranges', () => {
  it('cuts an end past the last byte, as HTTP does', () => {
    expect(resolveRange('k', { start: 2, end: 100 }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange('k', { start: 2 }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange('k', { start: 9, end: 9 }, 10)).toEqual({ start: 9, end: 9 });
  });

  it('refuses a start at or past the end, and any range of an empty blob (416)', () => {
    expect(() => resolveRange('k', { start: 10 }, 10)).toThrow(expect.objectContaining({ code: ErrorCodes.validationFailed }));
    expect(() => resolveRange('k', { start: 0 }, 0)).toThrow(expect.objectContaining({ code: ErrorCodes.validationFailed }));
  });

  it.each([{ start: -1 }, { start: 1.5 }, { start: 5, end: 4 }, { start: Number.NaN }, { start: 0, end: 2.5 }])('refuses %j', (range) => {
    expect(() => assertValidRange('k', range)).toThrow(expect.objectContaining({ code: ErrorCodes.validationFailed }));
  });

  it('renders the Range header, open-ended when there is no end', () => {
    expect(rangeHeader({ start: 0, end: 99 })).toBe('bytes=0-99');
    expect(rangeHeader({ start: 100 })).toBe('bytes=100-');
  });
});
