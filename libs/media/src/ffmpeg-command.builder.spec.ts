import { ffprobeArgs, hlsRemuxArgs, ladderEncodeArgs, safeInputArgs } from './ffmpeg-command.builder';
import type { MediaProbe } from './media-probe';
import { planLadder } from './rendition-ladder.policy';

const probe: MediaProbe = {
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 10,
  width: 1280,
  height: 720,
  rotation: 0,
  videoCodec: 'h264',
  frameRate: 30,
  audioCodec: 'aac',
  bitRate: 3_000_000,
  sizeBytes: 4_000_000,
  videoStreamIndex: 1,
  audioStreamIndex: 0,
};
/** The value following `flag` in `args`, each time it occurs. */
const values = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
const encode = (p: MediaProbe = probe) => {
  const plans = planLadder(p, ['720p', '360p']);
  return ladderEncodeArgs({ input: '/tmp/job/source', probe: p, threads: 2, renditions: plans.map((plan) => ({ plan, output: `/tmp/job/${plan.name}/video.mp4` })) });
};

describe('ffmpeg command builder', () => {
  it('opens inputs through the file protocol and accepted demuxers only', () => {
    const input = safeInputArgs('/tmp/job/source');
    expect(input.slice(0, 2)).toEqual(['-protocol_whitelist', 'file']);
    expect(values(input, '-format_whitelist')[0]).toMatch(/^mov,matroska,/);
    expect(values(input, '-format_whitelist')[0]).not.toMatch(/hls|concat|dash|sdp|image2/);
    expect(input.slice(-2)).toEqual(['-i', 'file:/tmp/job/source']);
    expect(ffprobeArgs('/x')).toEqual(expect.arrayContaining(['-show_format', '-show_streams', '-of', 'json', '-protocol_whitelist', 'file:/x']));
  });

  it('decodes once and encodes each rendition to its own H.264 Main MP4', () => {
    const args = encode();
    expect(args.slice(0, 5)).toEqual(['-nostdin', '-hide_banner', '-y', '-loglevel', 'error']);
    expect(args).toEqual(expect.arrayContaining(['-nostats', '-progress', 'pipe:1']));
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(values(args, '-filter_complex')).toEqual([
      '[0:1]split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1,format=yuv420p[v0];[s1]scale=640:360:flags=bicubic,setsar=1,format=yuv420p[v1]',
    ]);
    expect(values(args, '-map')).toEqual(['[v0]', '0:0', '[v1]', '0:0']);
    expect(values(args, '-c:v')).toEqual(['libx264', 'libx264']);
    expect(values(args, '-preset')).toEqual(['veryfast', 'veryfast']);
    expect(values(args, '-profile:v')).toEqual(['main', 'main']);
    expect(values(args, '-level:v')).toEqual(['3.1', '3.0']);
    expect(values(args, '-pix_fmt')).toEqual(['yuv420p', 'yuv420p']);
    expect(values(args, '-b:v')).toEqual(['2800000', '800000']);
    expect(values(args, '-maxrate')).toEqual(['2996000', '856000']);
    expect(values(args, '-sc_threshold')).toEqual(['0', '0']);
    expect(values(args, '-force_key_frames')).toEqual(['expr:gte(t,n_forced*4)', 'expr:gte(t,n_forced*4)']);
    expect(values(args, '-g')).toEqual(['120', '120']);
    expect(values(args, '-c:a')).toEqual(['aac', 'aac']);
    expect(values(args, '-b:a')).toEqual(['128000', '96000']);
    expect(values(args, '-movflags')).toEqual(['+faststart', '+faststart']);
    expect(values(args, '-threads')).toEqual(['2', '2', '2']);
    expect(values(args, '-map_metadata')).toEqual(['-1', '-1']);
    expect(args.slice(-1)).toEqual(['file:/tmp/job/360p/video.mp4']);
  });

  it('encodes no audio when the source has none, and caps a high frame rate', () => {
    const args = encode({ ...probe, audioCodec: null, audioStreamIndex: null, frameRate: 120 });
    expect(args).not.toContain('-c:a');
    expect(values(args, '-map')).toEqual(['[v0]', '[v1]']);
    expect(values(args, '-filter_complex')[0]).toContain('[s0]fps=60,scale=1280:720');
    expect(values(args, '-g')).toEqual(['240', '240']);
  });

  it('leaves the GOP to the forced keyframes when the frame rate is unknown', () => {
    expect(encode({ ...probe, frameRate: null })).not.toContain('-g');
  });

  it('remuxes an MP4 to an HLS VOD playlist without re-encoding', () => {
    const args = hlsRemuxArgs('/tmp/job/720p/video.mp4', '/tmp/job/720p');
    expect(args).toEqual(expect.arrayContaining(['-nostdin', '-protocol_whitelist', 'file', '-c', 'copy', '-f', 'hls']));
    expect(values(args, '-hls_time')).toEqual(['4']);
    expect(values(args, '-hls_playlist_type')).toEqual(['vod']);
    expect(values(args, '-hls_segment_filename')).toEqual(['file:/tmp/job/720p/segment_%03d.ts']);
    expect(args.at(-1)).toBe('file:/tmp/job/720p/index.m3u8');
  });
});
