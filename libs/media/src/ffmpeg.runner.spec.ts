import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.runner';

const dir = mkdtempSync(join(tmpdir(), 'longhaul-ffmpeg-spec-'));
const at = (name: string) => join(dir, name);
const never = () => new AbortController().signal;
/** A small encode of `input` with progress on stdout, as the ladder encode runs. */
const encodeArgs = (input: string, output = at('out.mp4')) => ['-nostdin', '-hide_banner', '-y', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-i', `file:${input}`, '-vf', 'scale=160:120', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mp4', `file:${output}`];

beforeAll(() => {
  // moov first, so a truncated copy still probes and ffmpeg stops quietly at the cut.
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=4', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', at('clip.mp4')]);
  copyFileSync(at('clip.mp4'), at('cut.mp4'));
  truncateSync(at('cut.mp4'), Math.floor(statSync(at('clip.mp4')).size * 0.4));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runFfmpeg', () => {
  it('reports progress as fractions of the duration, ending at 1', async () => {
    const fractions: number[] = [];
    const run = await runFfmpeg(encodeArgs(at('clip.mp4')), { signal: never(), durationSeconds: 4, requireComplete: true, onProgress: (f) => fractions.push(f) });
    expect(run.outTimeSeconds).toBeGreaterThan(3.5);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('refuses a truncated input that ffmpeg calls a success, as media_invalid', async () => {
    await expect(runFfmpeg(encodeArgs(at('cut.mp4')), { signal: never(), durationSeconds: 4, requireComplete: true })).rejects.toMatchObject({
      code: 'media_invalid',
      retryable: false,
      message: expect.stringContaining('ends early'),
    });
  });

  it('refuses undecodable input as media_invalid and other failures as retryable step_failed', async () => {
    await expect(runFfmpeg(encodeArgs(join(__dirname, 'media-probe.ts')), { signal: never() })).rejects.toMatchObject({ code: 'media_invalid', retryable: false });
    await expect(runFfmpeg(encodeArgs(at('clip.mp4'), join(dir, 'missing', 'out.mp4')), { signal: never() })).rejects.toMatchObject({
      code: 'step_failed',
      retryable: true,
      message: expect.stringMatching(/exited with code \d+: .*No such file or directory/),
    });
    await expect(runFfmpeg(['-version'], { signal: never(), ffmpegPath: '/nonexistent/ffmpeg' })).rejects.toMatchObject({ code: 'step_failed', retryable: true });
  });

  it('kills ffmpeg when the step aborts and rejects with the reason', async () => {
    const controller = new AbortController();
    const endless = ['-nostdin', '-v', 'error', '-progress', 'pipe:1', '-re', '-f', 'lavfi', '-i', 'testsrc2', '-f', 'null', '-'];
    const started = Date.now();
    const run = runFfmpeg(endless, { signal: controller.signal, durationSeconds: 60, onProgress: () => controller.abort(new Error('deadline')) });
    await expect(run).rejects.toThrow('deadline');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
