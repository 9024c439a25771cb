import { traceIdOf } from './trace-context';

describe('traceIdOf', () => {
  it('extracts the trace id of a valid traceparent', () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
  it('returns null for absent or malformed values', () => {
    expect(traceIdOf(null)).toBeNull();
    expect(traceIdOf('garbage')).toBeNull();
  });
});
