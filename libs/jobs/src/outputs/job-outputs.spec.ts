import { jobFilePath, outputFilesOf } from './job-outputs';

const id = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
const k = (p: string) => `jobs/${id}/${p}`;

describe('outputFilesOf', () => {
  it('lists every file of the transcode and thumbnail results in order', () => {
    const files = outputFilesOf(id, {
      transcode: { master: k('transcode/master.m3u8'), renditions: [{ name: '720p', mp4: k('transcode/720p/video.mp4'), playlist: k('transcode/720p/index.m3u8') }] },
      thumbnail: { poster: k('thumbnails/poster.jpg'), thumbnails: [k('thumbnails/thumb_000.jpg')], sprite: { image: k('thumbnails/sprite.jpg'), vtt: k('thumbnails/sprite.vtt') } },
    });
    expect(files.map((f) => [f.kind, f.rendition ?? null])).toEqual([
      ['hls_master', null], ['mp4', '720p'], ['hls_playlist', '720p'], ['poster', null], ['thumbnail', null], ['sprite', null], ['sprite_vtt', null],
    ]);
  });

  it('never lists a key outside the job, and copes with a placeholder result', () => {
    expect(outputFilesOf(id, { transcode: { master: 'jobs/other/transcode/master.m3u8' } })).toEqual([]);
    expect(outputFilesOf(id, { transcode: { placeholder: true, master: k('transcode/master.m3u8') } })).toEqual([]);
    expect(outputFilesOf(id, { thumbnail: { simulated: true, poster: k('thumbnails/poster.jpg') } })).toEqual([]);
    expect(outputFilesOf(id, null)).toEqual([]);
  });

  it('serves a job file under the job path', () => {
    expect(jobFilePath(id, k('transcode/720p/index.m3u8'))).toBe(`/v1/jobs/${id}/files/transcode/720p/index.m3u8`);
  });
});
