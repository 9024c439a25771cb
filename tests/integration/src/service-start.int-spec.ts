import { execFile } from 'node:child_process';
import { compiledEntry, ensureServicesBuilt, workspaceRoot } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

/** Starts a compiled service with `overrides` and returns how it ended, or throws if it is still up after 30 s. */
function start(app: string, overrides: Record<string, string>): Promise<{ code: number | null; output: string }> {
  ensureServicesBuilt();
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [compiledEntry(app)],
      { cwd: workspaceRoot(), env: { ...process.env, DATABASE_URL: env.databaseUrl, LOG_LEVEL: 'warn', ...overrides }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error?.killed) reject(new Error(`${app} was still running after 30 s:\n${stdout}${stderr}`));
        else resolve({ code: child.exitCode, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('a service refuses to start without the tools it needs', () => {
  it('the api exits 1 naming FFPROBE_PATH when ffprobe does not run, before it listens or migrates', async () => {
    const ended = await start('api', { FFPROBE_PATH: '/nonexistent/ffprobe', PORT: '17999' });
    expect(ended.code).toBe(1);
    expect(ended.output).toContain('config_invalid');
    expect(ended.output).toContain('api: FFPROBE_PATH does not run: "/nonexistent/ffprobe -hide_banner -version" could not run');
  });

  it('the thumbnailer in the media step mode exits 1 naming FFMPEG_PATH when ffmpeg does not run', async () => {
    const ended = await start('thumbnailer', { STEP_MODE: 'media', FFMPEG_PATH: '/nonexistent/ffmpeg', PORT: '17998' });
    expect(ended.code).toBe(1);
    expect(ended.output).toContain('thumbnailer: FFMPEG_PATH does not run');
  });
});
