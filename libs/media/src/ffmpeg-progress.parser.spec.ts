import { FfmpegProgressParser, progressFraction, type FfmpegProgress } from './ffmpeg-progress.parser';

const block = (fields: string, end = false) => `frame=10\nfps=30.0\n${fields}\nspeed=1.5x\nprogress=${end ? 'end' : 'continue'}\n`;

function collect(chunks: string[]) {
  const seen: FfmpegProgress[] = [];
  const parser = new FfmpegProgressParser((p) => seen.push(p));
  for (const chunk of chunks) parser.push(chunk);
  return { seen, parser };
}

describe('FfmpegProgressParser', () => {
  it('reads out_time_us per block and says when ffmpeg is done', () => {
    const { seen, parser } = collect([block('out_time_us=2500000\nout_time_ms=2500000\nout_time=00:00:02.500000'), block('out_time_us=10000000', true)]);
    expect(seen).toEqual([
      { outTimeSeconds: 2.5, done: false },
      { outTimeSeconds: 10, done: true },
    ]);
    expect(parser.outTimeSeconds).toBe(10);
  });

  it('joins lines split across chunks', () => {
    const text = block('out_time_us=1234567');
    const { seen } = collect([text.slice(0, 25), text.slice(25, 31), text.slice(31)]);
    expect(seen).toEqual([{ outTimeSeconds: 1.234567, done: false }]);
  });

  it('falls back to out_time_ms (microseconds, despite the name), then to out_time', () => {
    expect(collect([block('out_time_ms=3000000')]).seen[0]!.outTimeSeconds).toBe(3);
    expect(collect([block('out_time=01:02:03.500000')]).seen[0]!.outTimeSeconds).toBe(3723.5);
  });

  it('has no position while ffmpeg reports N/A, and never goes backwards', () => {
    const { seen } = collect([block('out_time_us=N/A\nout_time=N/A'), block('out_time_us=4000000'), block('out_time_us=3000000')]);
    expect(seen.map((p) => p.outTimeSeconds)).toEqual([null, 4, 4]);
  });

  it('accepts CRLF line ends', () => {
    expect(collect([block('out_time_us=1000000').replace(/\n/g, '\r\n')]).seen).toEqual([{ outTimeSeconds: 1, done: false }]);
  });
});

describe('progressFraction', () => {
  it('turns a position into a fraction of the duration, clamped, and 1 once done', () => {
    expect(progressFraction({ outTimeSeconds: 2.5, done: false }, 10)).toBe(0.25);
    expect(progressFraction({ outTimeSeconds: 12, done: false }, 10)).toBe(1);
    expect(progressFraction({ outTimeSeconds: null, done: false }, 10)).toBe(0);
    expect(progressFraction({ outTimeSeconds: 3, done: true }, 10)).toBe(1);
    expect(progressFraction({ outTimeSeconds: 3, done: false }, 0)).toBe(0);
  });
});
