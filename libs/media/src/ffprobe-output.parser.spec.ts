import { parseFfprobeOutput } from './ffprobe-output.parser';

const video = {
  index: 0,
  codec_type: 'video',
  codec_name: 'h264',
  width: 1920,
  height: 1080,
  sample_aspect_ratio: '1:1',
  avg_frame_rate: '30000/1001',
  r_frame_rate: '30000/1001',
  disposition: { attached_pic: 0 },
};
const audio = { index: 1, codec_type: 'audio', codec_name: 'aac' };
const format = { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.010000', bit_rate: '5432100' };
const parse = (json: unknown, size = 1000) => parseFfprobeOutput(JSON.stringify(json), size);
const failure = (json: unknown) => {
  try {
    parse(json);
  } catch (error) {
    return error as { code: string; retryable: boolean; message: string };
  }
  throw new Error('expected a failure');
};

describe('parseFfprobeOutput', () => {
  it('describes a video with audio', () => {
    expect(parse({ format, streams: [video, audio] }, 6_000_000)).toEqual({
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      durationSeconds: 10.01,
      width: 1920,
      height: 1080,
      rotation: 0,
      videoCodec: 'h264',
      frameRate: 29.97,
      audioCodec: 'aac',
      bitRate: 5_432_100,
      sizeBytes: 6_000_000,
      videoStreamIndex: 0,
      audioStreamIndex: 1,
    });
  });

  it('gives the size as displayed: rotated by the display matrix or the old rotate tag, pixels widened', () => {
    const portrait = parse({ format, streams: [{ ...video, side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] }] });
    expect(portrait).toMatchObject({ width: 1080, height: 1920, rotation: 90 });
    expect(parse({ format, streams: [{ ...video, tags: { rotate: '270' } }] })).toMatchObject({ width: 1080, height: 1920, rotation: 270 });
    expect(parse({ format, streams: [{ ...video, side_data_list: [{ side_data_type: 'Display Matrix', rotation: 180 }] }] })).toMatchObject({ width: 1920, rotation: 180 });
    expect(parse({ format, streams: [{ ...video, width: 720, height: 576, sample_aspect_ratio: '64:45' }] })).toMatchObject({ width: 1024, height: 576 });
  });

  it('skips cover art and takes the first real video stream', () => {
    const cover = { ...video, index: 0, codec_name: 'mjpeg', disposition: { attached_pic: 1 } };
    expect(parse({ format, streams: [cover, { ...video, index: 2 }, audio] })).toMatchObject({ videoCodec: 'h264', videoStreamIndex: 2 });
  });

  it('falls back to the base frame rate, and to the stream duration', () => {
    expect(parse({ format, streams: [{ ...video, avg_frame_rate: '0/0', r_frame_rate: '25/1' }] }).frameRate).toBe(25);
    expect(parse({ format, streams: [{ ...video, avg_frame_rate: '0/0', r_frame_rate: '90000/1' }] }).frameRate).toBeNull();
    expect(parse({ format: { format_name: 'matroska,webm' }, streams: [{ ...video, duration: '4.5' }] }).durationSeconds).toBe(4.5);
  });

  it('refuses audio only, including audio with cover art, as media_no_video', () => {
    expect(failure({ format, streams: [audio] })).toMatchObject({ code: 'media_no_video', retryable: false, message: expect.stringContaining('audio only') });
    expect(failure({ format, streams: [audio, { ...video, disposition: { attached_pic: 1 } }] })).toMatchObject({ code: 'media_no_video' });
    expect(failure({ format, streams: [] })).toMatchObject({ code: 'media_no_video' });
  });

  it('refuses what has no duration or picture size, or is too large, as media_invalid', () => {
    expect(failure({ format: { ...format, duration: '0.000000' }, streams: [video] })).toMatchObject({ code: 'media_invalid', retryable: false });
    expect(failure({ format: { format_name: 'mpegts', duration: 'N/A' }, streams: [video] })).toMatchObject({ code: 'media_invalid' });
    expect(failure({ format, streams: [{ ...video, width: 0 }] })).toMatchObject({ code: 'media_invalid' });
    expect(failure({ format, streams: [{ ...video, width: 16384, height: 16384 }] })).toMatchObject({ code: 'media_invalid', message: expect.stringContaining('8192') });
  });

  it('refuses output that describes no container as media_unreadable', () => {
    expect(() => parseFfprobeOutput('not json', 1)).toThrow(expect.objectContaining({ code: 'media_unreadable', retryable: false }));
    expect(failure({})).toMatchObject({ code: 'media_unreadable' });
    expect(failure({ format, streams: [{ ...video, codec_name: undefined }] })).toMatchObject({ code: 'media_unreadable' });
  });
});
