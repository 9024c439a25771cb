import { errorFingerprint } from './error.fingerprint';

describe('errorFingerprint', () => {
  it('groups messages that differ only in numbers and ids', () => {
    expect(errorFingerprint('transcode', 'step_timed_out', 'step passed its deadline of 600000 ms')).toBe(
      errorFingerprint('transcode', 'step_timed_out', 'step passed its deadline of 1500 ms'),
    );
    expect(errorFingerprint('transcode', 'step_failed', 'job 0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d broke')).toBe(
      errorFingerprint('transcode', 'step_failed', 'job 0192f0c4-1d5e-7a3b-9c4d-000000000000 broke'),
    );
  });

  it('separates codes, steps and different messages', () => {
    const base = errorFingerprint('transcode', 'step_failed', 'decoder error');
    expect(errorFingerprint('thumbnail', 'step_failed', 'decoder error')).not.toBe(base);
    expect(errorFingerprint('transcode', 'step_lost', 'decoder error')).not.toBe(base);
    expect(errorFingerprint('transcode', 'step_failed', 'disk full')).not.toBe(base);
  });
});
