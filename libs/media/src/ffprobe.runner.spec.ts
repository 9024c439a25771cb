import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync, copyFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeMedia } from './ffprobe.runner';

// Real ffprobe on files ffmpeg makes here from its test sources (nothing binary is committed).
const dir = mkdtempSync(join(tmpdir(), 'longhaul-probe-spec-'));
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args]);
const at = (name: string) => join(dir, name);
const probe = (name: string, signal = new AbortController().signal) => probeMedia(at(name), { signal });

beforeAll(() => {
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', at('clip.mp4'));
  ffmpeg('-i', at('clip.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', at('rotated.mp4'));
  ffmpeg('-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', at('audio.m4a'));
  copyFileSync(at('clip.mp4'), at('truncated.mp4'));
  truncateSync(at('truncated.mp4'), Math.floor(statSync(at('clip.mp4')).size / 2));
  writeFileSync(at('empty.mp4'), '');
  writeFileSync(at('notes.txt'), 'this is not a video\n');
  writeFileSync(at('playlist.m3u8'), `#EXTM3U\n#EXTINF:1,\n${at('clip.mp4')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('probeMedia', () => {
  it('describes a video', async () => {
    expect(await probe('clip.mp4')).toMatchObject({
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      width: 320,
      height: 240,
      rotation: 0,
      videoCodec: 'h264',
      frameRate: 25,
      audioCodec: 'aac',
      sizeBytes: statSync(at('clip.mp4')).size,
      videoStreamIndex: 0,
      audioStreamIndex: 1,
    });
    expect((await probe('clip.mp4')).durationSeconds).toBeCloseTo(1, 1);
  });

  it('gives a rotated video its displayed size', async () => {
    expect(await probe('rotated.mp4')).toMatchObject({ width: 240, height: 320, rotation: 270 });
  });

  it.each([
    ['empty.mp4', 'media_empty'],
    ['notes.txt', 'media_unreadable'],
    ['truncated.mp4', 'media_unreadable'],
    ['audio.m4a', 'media_no_video'],
    // A playlist would make a demuxer open the files it names: refused by -format_whitelist.
    ['playlist.m3u8', 'media_unreadable'],
  ])('refuses %s with %s, not retryable', async (name, code) => {
    await expect(probe(name)).rejects.toMatchObject({ code, retryable: false });
  });

  it('rejects with the abort reason when the step aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(probe('clip.mp4', controller.signal)).rejects.toThrow('cancelled');
  });

  it('fails retryably when ffprobe is missing', async () => {
    await expect(probeMedia(at('clip.mp4'), { signal: new AbortController().signal, ffprobePath: '/nonexistent/ffprobe' })).rejects.toMatchObject({
      code: 'step_failed',
      retryable: true,
    });
  });
});
