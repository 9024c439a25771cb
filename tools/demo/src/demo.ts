// `npm run demo`: starts the four services against the running native stack in media mode,
// generates a short test clip with ffmpeg, uploads it, submits a job for it, and prints every
// status change, the final outputs with their download links, and the trace link. It calls the
// api with `LONGHAUL_API_KEY`, or without one with a key it issues for the tenant `demo`.
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { JobView } from '@longhaul/contracts';
import { ApiClient, apiKeyForTool, generateTestVideo, nativeStackInfo, sleep, startServices, stopServices, workspaceRoot } from '@longhaul/testing';

function describe(job: JobView): string {
  const steps = job.steps
    .map((s) => `${s.name}=${s.status}${s.attempt > 0 ? `#${s.attempt}` : ''}${s.status === 'running' && s.progress !== null ? ` ${Math.round(s.progress * 100)}%` : ''}`)
    .join(' ');
  return `${job.status.padEnd(9)} ${job.stage.state.padEnd(15)} ${steps}`;
}

async function upload(api: ApiClient, path: string): Promise<{ id: string }> {
  const response = await fetch(`${api.baseUrl}/v1/uploads`, {
    method: 'POST',
    body: Readable.toWeb(createReadStream(path)) as unknown as RequestInit['body'],
    headers: api.withAuth({ 'content-type': 'video/mp4', 'content-length': String(statSync(path).size) }),
    duplex: 'half',
  } as RequestInit);
  const body = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function main(): Promise<void> {
  const stack = nativeStackInfo();
  const logDir = join(workspaceRoot(), 'tmp', 'demo-logs');
  const scratch = mkdtempSync(join(tmpdir(), 'longhaul-demo-'));
  // The keys command migrates the database first, so a key can be issued before the api runs.
  const key = await apiKeyForTool({ given: process.env['LONGHAUL_API_KEY'], databaseUrl: stack.databaseUrl, tenant: 'demo', say: (line) => console.log(line) });
  console.log(`starting api, transcoder, thumbnailer, notifier in media mode (logs in ${logDir}) …`);
  const services = await startServices({ stack, logDir, basePort: Number(process.env['LONGHAUL_DEMO_PORT'] ?? 3000), env: { STEP_MODE: 'media' }, apiKey: { key } });
  try {
    const clip = join(scratch, 'demo-720p.mp4');
    await generateTestVideo(clip, { seconds: 8, width: 1280, height: 720, audio: true });
    const api = new ApiClient(services.api.url, services.apiKey);
    const uploaded = await upload(api, clip);
    console.log(`uploaded a generated 8 s 720p clip as ${uploaded.id}`);
    const submitted = await api.submitJob({ type: 'video.process', source: { uploadId: uploaded.id }, outputs: { thumbnails: { count: 4 } } });
    if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
    const started = Date.now();
    console.log(`\njob ${submitted.body.id} accepted (202, Location: ${submitted.headers.get('location')})`);

    let last = '';
    let job = submitted.body;
    for (const deadline = Date.now() + 300_000; Date.now() < deadline; await sleep(200)) {
      job = (await api.getJob(job.id)).body;
      const line = describe(job);
      if (line !== last) console.log(`  +${String(Date.now() - started).padStart(6)} ms  ${line}`);
      last = line;
      if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
    }
    console.log(`\nfinal status: ${job.status}`);
    for (const d of job.downloads) console.log(`  ${d.kind.padEnd(12)} ${(d.rendition ?? '').padEnd(6)} ${d.url.startsWith('/') ? services.api.url + d.url : d.url}`);
    if (job.error) console.log(`error: ${JSON.stringify(job.error)}`);
    if (job.traceId) console.log(`trace: ${stack.jaegerUrl}/api/traces/${job.traceId}`);
    process.exitCode = job.status === 'completed' ? 0 : 1;
  } finally {
    await stopServices(services);
    rmSync(scratch, { recursive: true, force: true });
    console.log('\nservices stopped; the stack keeps running (`npm run infra:down` stops it).');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
