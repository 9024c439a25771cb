import { checkMediaTools } from './media-tools.check';

describe('checkMediaTools', () => {
  it('passes with the installed ffmpeg and ffprobe', async () => {
    await expect(checkMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' })).resolves.toBeUndefined();
  });

  it('names the tool that does not run', async () => {
    await expect(checkMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: '/nonexistent/ffprobe' })).rejects.toThrow('/nonexistent/ffprobe');
  });
});
