import { ffmpegFailure, stderrTail, truncatedOutputFailure } from './ffmpeg-failure.policy';

describe('ffmpegFailure', () => {
  it('blames the input, for good, when stderr says it cannot be decoded', () => {
    const error = ffmpegFailure({ code: 1, signal: null, stderrTail: '[h264 @ 0x1] Invalid NAL unit size\nError while decoding stream #0:0: Invalid data found when processing input\n' });
    expect(error).toMatchObject({ code: 'media_invalid', retryable: false });
    expect(error.message).toContain('Invalid data found when processing input');
  });

  it('blames the machine, retryably, for anything else, keeping the tail of stderr', () => {
    expect(ffmpegFailure({ code: 1, signal: null, stderrTail: 'av_interleaved_write_frame(): No space left on device\n' })).toMatchObject({
      code: 'step_failed',
      retryable: true,
      message: 'ffmpeg exited with code 1: av_interleaved_write_frame(): No space left on device',
    });
    expect(ffmpegFailure({ code: null, signal: 'SIGKILL', stderrTail: 'Invalid data found when processing input' })).toMatchObject({ code: 'step_failed', retryable: true });
  });

  it('puts a shortage of disk or memory before decode errors printed earlier', () => {
    const stderr = 'Error while decoding stream #0:0: Invalid data found when processing input\nError writing trailer: No space left on device';
    expect(ffmpegFailure({ code: 1, signal: null, stderrTail: stderr })).toMatchObject({ code: 'step_failed', retryable: true });
  });
});

describe('truncatedOutputFailure', () => {
  it('accepts an output that covers the duration, with slack', () => {
    expect(truncatedOutputFailure(10, 10, '')).toBeNull();
    expect(truncatedOutputFailure(8.6, 10, '')).toBeNull();
  });

  it('refuses an output that stops early, or never started, as media_invalid', () => {
    expect(truncatedOutputFailure(4.3, 10, 'stream 1, offset 0x2de4cb: partial file')).toMatchObject({
      code: 'media_invalid',
      retryable: false,
      message: expect.stringContaining('4.3 s of 10.0 s'),
    });
    expect(truncatedOutputFailure(null, 10, '')).toMatchObject({ code: 'media_invalid' });
  });
});

describe('stderrTail', () => {
  it('keeps the last characters on one line', () => {
    expect(stderrTail('a\n\n b \n')).toBe('a | b');
    const long = stderrTail('x'.repeat(5000));
    expect(long).toHaveLength(1001);
    expect(long.startsWith('…')).toBe(true);
  });
});
