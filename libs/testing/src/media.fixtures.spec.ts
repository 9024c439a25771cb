import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeMedia } from '@longhaul/media';
import { generateAudioOnly, generateTestVideo, writeEmptyFile, writeTextFile, writeTruncatedCopy } from './media.fixtures';

let dir: string;
const at = (name: string) => join(dir, name);
const probe = (name: string) => probeMedia(at(name), { signal: new AbortController().signal });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longhaul-fixtures-spec-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('media fixtures', () => {
  it('generates a video of the asked size, length, rate and audio', async () => {
    await generateTestVideo(at('clip.mp4'), { seconds: 1, width: 320, height: 240, audio: true, fps: 25 });
    await generateTestVideo(at('mute.mp4'), { seconds: 1, width: 160, height: 90, audio: false });
    const clip = await probe('clip.mp4');
    expect(clip).toMatchObject({ width: 320, height: 240, frameRate: 25, videoCodec: 'h264', audioCodec: 'aac' });
    expect(clip.durationSeconds).toBeCloseTo(1, 1);
    expect(await probe('mute.mp4')).toMatchObject({ width: 160, height: 90, frameRate: 30, audioCodec: null });
  });

  it('makes each bad input the probe refuses', async () => {
    await generateAudioOnly(at('audio.m4a'), { seconds: 1 });
    await writeTruncatedCopy(at('clip.mp4'), at('truncated.mp4'));
    await writeTextFile(at('notes.txt'));
    await writeEmptyFile(at('empty.mp4'));
    await expect(probe('audio.m4a')).rejects.toMatchObject({ code: 'media_no_video' });
    await expect(probe('truncated.mp4')).rejects.toMatchObject({ code: 'media_unreadable' });
    await expect(probe('notes.txt')).rejects.toMatchObject({ code: 'media_unreadable' });
    await expect(probe('empty.mp4')).rejects.toMatchObject({ code: 'media_empty' });
  });
});
