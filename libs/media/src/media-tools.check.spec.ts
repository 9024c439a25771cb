import { checkMediaTool, checkMediaTools } from './media-tools.check';

describe('checkMediaTools', () => {
  it('passes with the installed ffmpeg and ffprobe', async () => {
    await expect(checkMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' })).resolves.toBeUndefined();
  });

  it('names the tool that does not run', async () => {
    await expect(checkMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: '/nonexistent/ffprobe' })).rejects.toThrow('/nonexistent/ffprobe');
  });
});

describe('checkMediaTool', () => {
  it('passes for a tool that runs and says why otherwise', async () => {
    await expect(checkMediaTool('ffprobe')).resolves.toBeUndefined();
    await expect(checkMediaTool('/nonexistent/ffprobe')).rejects.toThrow('could not run');
    // Node runs, but refuses ffmpeg's `-hide_banner`: a binary that is not the tool.
    await expect(checkMediaTool(process.execPath)).rejects.toThrow('failed (exit');
  });
});
