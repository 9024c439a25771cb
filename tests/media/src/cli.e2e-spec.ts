import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobView } from '@longhaul/contracts';
import { generateTestVideo, workspaceRoot } from '@longhaul/testing';
import { mediaEnv } from './test-env';

const env = mediaEnv();
const work = mkdtempSync(join(tmpdir(), 'longhaul-cli-e2e-'));
const clip = join(work, 'clip.mp4');

beforeAll(async () => {
  await generateTestVideo(clip, { seconds: 4, width: 640, height: 360, audio: true });
}, 120_000);

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await env.db.close();
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as `npx longhaul` runs it: its bin, in a process of its own, against the suite's api. */
function longhaul(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const options = { timeout: 240_000, env: { ...process.env, LONGHAUL_API_KEY: env.apiKey } };
    execFile(process.execPath, [join(workspaceRoot(), 'tools/cli/bin/longhaul.mjs'), ...args, '--api', env.apiUrl], options, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the longhaul CLI against the real stack', () => {
  let jobId: string;

  it('submit FILE --wait uploads the file, follows the job over its event stream and prints the downloads', async () => {
    const run = await longhaul('submit', clip, '--wait', '--renditions', '360p', '--thumbnails', '2', '--metadata', 'origin=cli-e2e', '--json');
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as { upload: { id: string; media: { width: number } }; job: JobView };
    jobId = document.job.id;
    expect(document.upload.media.width).toBe(640);
    expect(document.job).toMatchObject({ status: 'completed', source: { uploadId: document.upload.id }, metadata: { origin: 'cli-e2e' } });
    const kinds = new Set(document.job.downloads.map((d) => d.kind));
    expect(kinds.has('mp4')).toBe(true);
    expect(kinds.has('hls_master')).toBe(true);
    expect(kinds.has('thumbnail')).toBe(true);
    // Links are absolute and work.
    const first = document.job.downloads[0]!.url;
    expect(first).toMatch(/^https?:\/\//);
    expect((await fetch(first, { method: 'HEAD' })).ok).toBe(true);
    // The progress came from the event stream (stderr when not a terminal), not from polling.
    const feed = await env.db.count(`SELECT count(*) FROM api.job_feed WHERE job_id = $1`, [jobId]);
    expect(feed).toBeGreaterThan(3);
  });

  it('status ID and jobs list show the job', async () => {
    const status = await longhaul('status', jobId, '--json');
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as JobView).status).toBe('completed');

    const listed = await longhaul('jobs', 'list', '--status', 'completed', '--limit', '50', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(jobId);

    const human = await longhaul('status', jobId);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(jobId);
    expect(human.stdout).toContain('completed');
  });

  it('reports an api error with its code and exit status 1, and bad usage with 2', async () => {
    const missing = await longhaul('status', '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'not_found' } });
    const notVideo = join(work, 'notes.txt');
    writeFileSync(notVideo, 'not a video');
    const refused = await longhaul('submit', notVideo);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/media_/);
    expect((await longhaul('submit')).code).toBe(2);
  });
});
