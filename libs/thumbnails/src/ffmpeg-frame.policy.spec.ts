import { frameArgs, frameFailure } from './ffmpeg-frame.policy';

describe('frameArgs', () => {
  it('seeks before the input, opens it safely and writes one PNG frame', () => {
    const args = frameArgs({ input: '/tmp/x/input.mp4', seek: { fromStart: 1.5 }, output: '/tmp/x/f.png', threads: 2 });
    expect(args.slice(0, 9)).toEqual(['-nostdin', '-hide_banner', '-y', '-loglevel', 'error', '-threads', '2', '-ss', '1.500']);
    expect(args.slice(9, 11)).toEqual(['-protocol_whitelist', 'file']);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args[args.indexOf('-i') + 1]).toBe('file:/tmp/x/input.mp4');
    expect(args.slice(args.indexOf('-i') + 2)).toEqual(['-map', '0:V:0', '-frames:v', '1', '-f', 'image2', '-update', '1', '-c:v', 'png', '/tmp/x/f.png']);
  });

  it('can seek back from the end instead', () => {
    const args = frameArgs({ input: 'in.mp4', seek: { fromEnd: 1 }, output: 'f.png', threads: 1 });
    expect(args.slice(args.indexOf('-sseof'), args.indexOf('-sseof') + 2)).toEqual(['-sseof', '-1.000']);
    expect(args).not.toContain('-ss');
  });
});

describe('frameFailure', () => {
  const exit = (code: number | null, stderrTail: string, signal: NodeJS.Signals | null = null) => ({ code, signal, stderrTail });

  it('blames the input when ffmpeg cannot read it as video', () => {
    expect(frameFailure(exit(1, '[mov,mp4 @ 0x1] moov atom not found\nin.mp4: Invalid data found when processing input'))).toMatchObject({ code: 'media_invalid', retryable: false });
    expect(frameFailure(exit(1, "Stream map '0:V:0' matches no streams."))).toMatchObject({ code: 'media_invalid', retryable: false });
  });

  it('leaves kills, full disks and unknown failures retryable', () => {
    expect(frameFailure(exit(null, '', 'SIGKILL'))).toMatchObject({ code: 'step_failed', retryable: true });
    expect(frameFailure(exit(1, 'f.png: No space left on device'))).toMatchObject({ retryable: true });
    expect(frameFailure(exit(1, 'something new'))).toMatchObject({ retryable: true });
  });
});
