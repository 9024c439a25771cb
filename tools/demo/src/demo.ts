// `npm run demo`: starts the four services against the running native stack, submits one job,
// and prints its id, every status change, and the final status with its outputs and trace link.
import { join } from 'node:path';
import type { JobView } from '@longhaul/contracts';
import { ApiClient, nativeStackInfo, sampleJobRequest, sleep, startServices, stopServices, workspaceRoot } from '@longhaul/testing';

function describe(job: JobView): string {
  const steps = job.steps.map((s) => `${s.name}=${s.status}${s.attempt > 0 ? `#${s.attempt}` : ''}`).join(' ');
  return `${job.status.padEnd(9)} ${steps}`;
}

async function main(): Promise<void> {
  const stack = nativeStackInfo();
  const logDir = join(workspaceRoot(), 'tmp', 'demo-logs');
  console.log(`starting api, transcoder, thumbnailer, notifier (logs in ${logDir}) …`);
  // The demo's steps are placeholders that never read the input, so the api does not fetch it.
  const services = await startServices({ stack, logDir, basePort: Number(process.env['LONGHAUL_DEMO_PORT'] ?? 3000), env: { SOURCE_PROBE: 'false' } });
  try {
    const api = new ApiClient(services.api.url);
    const submitted = await api.submitJob(sampleJobRequest());
    if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
    const started = Date.now();
    console.log(`\njob ${submitted.body.id} accepted (202, Location: ${submitted.headers.get('location')})`);

    let last = '';
    let job = submitted.body;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(100)) {
      job = (await api.getJob(job.id)).body;
      const line = describe(job);
      if (line !== last) console.log(`  +${String(Date.now() - started).padStart(5)} ms  ${line}`);
      last = line;
      if (['completed', 'failed', 'cancelled'].includes(job.status)) break;
    }
    console.log(`\nfinal status: ${job.status}`);
    if (job.result) console.log(`outputs: ${JSON.stringify(job.result, null, 2)}`);
    if (job.error) console.log(`error: ${JSON.stringify(job.error)}`);
    if (job.traceId) console.log(`trace: ${stack.jaegerUrl}/api/traces/${job.traceId}`);
    process.exitCode = job.status === 'completed' ? 0 : 1;
  } finally {
    await stopServices(services);
    console.log('\nservices stopped; the stack keeps running (`npm run infra:down` stops it).');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
