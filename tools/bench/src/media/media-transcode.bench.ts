import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepRequestedV1 } from '@longhaul/contracts';
import { createBlobStore } from '@longhaul/storage';
import { generateTestVideo } from '@longhaul/testing';
// The boundary rule keeps testing projects away from the transcoder's feature lib; measuring its
// executor in-process is the point of this benchmark, so this one import is the exception.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { FfmpegTranscodeExecutor, sourceBlobKey } from '@longhaul/transcoding';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { cpuSnapshot, othersCpuShare, ourCpuSeconds } from '../cpu-contention.meter';
import { formatSummary, mebibytes, percent, ratio, seconds, summarize } from '../stats';
import { transcodeByHand } from './by-hand.transcode';
import { CommandRecorder, executorScratch, firstDifference, normalizeCommands } from './command.recorder';
import { TimedBlobStore } from './timed-blob.store';

/** The measured clip: 30 s of 1080p30 with a stereo AAC tone, made by `generateTestVideo`. */
const CLIP = { seconds: 30, width: 1920, height: 1080, fps: 30, audio: true } as const;
/** The command check runs on a clip as big and as fast, only shorter: no argument depends on the length. */
const CHECK_SECONDS = 2;
/** `-threads` on both sides: the transcoder's default (`FFMPEG_THREADS`). */
const THREADS = 2;
/** Executor ÷ by hand, median over median. */
const TARGET_RATIO = 1.1;
const UPLOAD_ID = 'bench-source';
/** Above this share of the machine's CPU going to other processes during a run, the verdict is flagged unreliable. */
const OTHERS_CPU_LIMIT = 0.15;

type StepContextOf = Parameters<FfmpegTranscodeExecutor['run']>[1];

/** Wall time of the executor, and of the same commands run by hand. */
export const mediaTranscodeBenchmark: Benchmark = {
  id: 'media-transcode',
  title: 'Transcoder overhead: FfmpegTranscodeExecutor vs the same commands by hand',
  run,
};

interface ExecutorRep {
  ms: number;
  /** Share of the machine's CPU other processes used meanwhile (0–1). */
  othersCpu: number;
  /** CPU time of this process and its children (ffprobe, ffmpeg), ms. */
  cpuMs: number;
  fetchMs: number;
  publishMs: number;
  outputs: { files: number; bytes: number; renditions: string[] };
}
interface ByHandRep {
  ms: number;
  othersCpu: number;
  cpuMs: number;
  probeMs: number;
  encodeMs: number;
  remuxMs: number;
}
interface Pair {
  order: string;
  executor: ExecutorRep;
  byHand: ByHandRep;
}

async function run(ctx: BenchmarkContext): Promise<BenchmarkResult> {
  const root = await mkdtemp(join(tmpdir(), 'longhaul-bench-transcode-'));
  try {
    ctx.log(`generating a ${CLIP.seconds} s ${CLIP.height}p${CLIP.fps} clip with audio …`);
    const clip = join(root, 'clip.mp4');
    await generateTestVideo(clip, { ...CLIP, signal: ctx.signal });
    const clipBytes = (await stat(clip)).size;

    ctx.log('checking that the executor and the run by hand spawn the same commands (short clip, untimed) …');
    const check = await checkCommands(join(root, 'check'), ctx);

    const store = new TimedBlobStore(await createBlobStore({ driver: 'fs', fs: { root: join(root, 'blobs') } }));
    await store.putFile(sourceBlobKey({ jobId: randomUUID(), source: { uploadId: UPLOAD_ID } }), clip);
    const executor = new FfmpegTranscodeExecutor({ store, threads: THREADS, tmpDir: await mkdirp(join(root, 'executor-tmp')) });
    const byHandRoot = await mkdirp(join(root, 'by-hand'));

    const pairs: Pair[] = [];
    for (let i = 0; i < ctx.repetitions; i++) {
      // Alternate which goes first, so a trend in the machine's load hits both alike.
      const executorFirst = i % 2 === 0;
      let executorRep: ExecutorRep | undefined;
      let byHandRep: ByHandRep | undefined;
      for (const variant of executorFirst ? ['executor', 'by hand'] : ['by hand', 'executor']) {
        ctx.signal.throwIfAborted();
        if (variant === 'executor') executorRep = await runExecutor(executor, store, ctx);
        else byHandRep = await runByHand(clip, byHandRoot, ctx);
        ctx.log(`  rep ${i + 1}/${ctx.repetitions} ${variant}: ${seconds(variant === 'executor' ? executorRep!.ms : byHandRep!.ms)}`);
      }
      pairs.push({ order: executorFirst ? 'executor, by hand' : 'by hand, executor', executor: executorRep!, byHand: byHandRep! });
    }
    return report(pairs, check, clipBytes);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function runExecutor(executor: FfmpegTranscodeExecutor, store: TimedBlobStore, ctx: BenchmarkContext): Promise<ExecutorRep> {
  const jobId = randomUUID();
  store.take();
  const cpu = cpuSnapshot();
  const started = performance.now();
  const result = await executor.run(stepRequest(jobId), stepContext(ctx));
  const ms = performance.now() - started;
  const cpuEnd = cpuSnapshot();
  const othersCpu = othersCpuShare(cpu, cpuEnd);
  const cpuMs = ourCpuSeconds(cpu, cpuEnd) * 1000;
  const { fetchMs, publishMs } = store.take();
  // Untimed: count what was stored, then remove it so every rep starts from the same disk.
  const keys = await store.inner.list(`jobs/${jobId}/`);
  let bytes = 0;
  for (const key of keys) bytes += (await store.inner.stat(key))?.size ?? 0;
  for (const key of keys) await store.inner.delete(key);
  return { ms, othersCpu, cpuMs, fetchMs, publishMs, outputs: { files: keys.length, bytes, renditions: result.renditions.map((r) => r.name) } };
}

async function runByHand(clip: string, root: string, ctx: BenchmarkContext): Promise<ByHandRep> {
  const scratch = await mkdtemp(join(root, 'run-'));
  try {
    const cpu = cpuSnapshot();
    const started = performance.now();
    const run = await transcodeByHand(clip, scratch, { threads: THREADS, signal: ctx.signal });
    const ms = performance.now() - started;
    const cpuEnd = cpuSnapshot();
    return { ms, othersCpu: othersCpuShare(cpu, cpuEnd), cpuMs: ourCpuSeconds(cpu, cpuEnd) * 1000, probeMs: run.probeMs, encodeMs: run.encodeMs, remuxMs: run.remuxMs };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Runs both once on a short clip with recording stand-ins for ffmpeg/ffprobe and compares the argument lists. */
async function checkCommands(dir: string, ctx: BenchmarkContext): Promise<{ count: number; difference: string | null }> {
  await mkdir(dir);
  const clip = join(dir, 'check.mp4');
  await generateTestVideo(clip, { ...CLIP, seconds: CHECK_SECONDS, signal: ctx.signal });
  const recorder = await CommandRecorder.create(await mkdirp(join(dir, 'shims')), { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' });
  const store = await createBlobStore({ driver: 'fs', fs: { root: join(dir, 'blobs') } });
  await store.putFile(sourceBlobKey({ jobId: randomUUID(), source: { uploadId: UPLOAD_ID } }), clip);
  const executor = new FfmpegTranscodeExecutor({ store, threads: THREADS, tmpDir: dir, ffmpegPath: recorder.ffmpegPath, ffprobePath: recorder.ffprobePath });
  await executor.run(stepRequest(randomUUID()), stepContext(ctx));
  const executed = await recorder.commands();
  const scratch = executorScratch(executed);

  const byHandScratch = await mkdtemp(join(dir, 'by-hand-'));
  const byHand = await transcodeByHand(clip, byHandScratch, { threads: THREADS, signal: ctx.signal });
  const a = normalizeCommands(executed, [[join(scratch, 'source'), '<source>'], [scratch, '<scratch>']]);
  const b = normalizeCommands(byHand.commands, [[clip, '<source>'], [byHandScratch, '<scratch>']]);
  return { count: a.length, difference: firstDifference(a, b) };
}

function stepRequest(jobId: string): StepRequestedV1 {
  return {
    jobId,
    step: 'transcode',
    attempt: 1,
    jobType: 'video.process',
    lane: 'slow',
    source: { uploadId: UPLOAD_ID },
    outputs: {},
    inputs: {},
    metadata: null,
    requestedAt: new Date().toISOString(),
  };
}

function stepContext(ctx: BenchmarkContext): StepContextOf {
  return { signal: ctx.signal, worker: 'bench', reportProgress: () => undefined };
}

async function mkdirp(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  return path;
}

function report(pairs: Pair[], check: { count: number; difference: string | null }, clipBytes: number): BenchmarkResult {
  const executor = summarize(pairs.map((p) => p.executor.ms));
  const byHand = summarize(pairs.map((p) => p.byHand.ms));
  const paired = summarize(pairs.map((p) => p.executor.ms / p.byHand.ms));
  const medianRatio = executor.median / byHand.median;
  const executorCpu = summarize(pairs.map((p) => p.executor.cpuMs));
  const byHandCpu = summarize(pairs.map((p) => p.byHand.cpuMs));
  const pairedCpu = summarize(pairs.map((p) => p.executor.cpuMs / p.byHand.cpuMs));
  const cpuRatio = executorCpu.median / byHandCpu.median;
  const fetch = summarize(pairs.map((p) => p.executor.fetchMs));
  const publish = summarize(pairs.map((p) => p.executor.publishMs));
  const rest = summarize(pairs.map((p) => p.executor.ms - p.executor.fetchMs - p.executor.publishMs));
  const outputs = pairs[0]!.executor.outputs;
  const s = (summary: ReturnType<typeof summarize>) => formatSummary(summary, seconds);
  const commandsMatch = check.difference === null;

  const findings: string[] = [];
  const extra = executor.median - byHand.median;
  findings.push(
    `Per run the executor took ${seconds(Math.abs(extra))} ${extra >= 0 ? 'more' : 'less'} than the commands by hand (median over median, ${ratio(medianRatio)}). ` +
      `Its storage work, which the run by hand does not do, took ${seconds(fetch.median)} to copy the ${mebibytes(clipBytes)} source out of the store and ` +
      `${seconds(publish.median)} to store ${outputs.files} output files (${mebibytes(outputs.bytes)}); the rest of its run (probe, encode, remux, scratch ` +
      `folder) took ${s(rest)} against ${s(byHand)} for the same commands by hand.`,
  );
  const cpuExtra = executorCpu.median - byHandCpu.median;
  findings.push(
    `In CPU time (this process and its children: what the encode costs, whoever else runs), executor ÷ by hand is ${ratio(cpuRatio)} ` +
      `(per pair ${ratio(pairedCpu.min)}–${ratio(pairedCpu.max)}): ${s(executorCpu)} against ${s(byHandCpu)}. The difference of the medians ` +
      `(${seconds(Math.abs(cpuExtra))} ${cpuExtra >= 0 ? 'more' : 'less'} for the executor) is ` +
      (Math.abs(cpuExtra) < byHandCpu.max - byHandCpu.min ? 'smaller than the spread of the identical runs by hand, so it cannot be told from noise.' : 'larger than the spread of the runs by hand.'),
  );
  const spread = (byHand.max - byHand.min) / byHand.median;
  findings.push(
    `The runs by hand alone spread over ${(spread * 100).toFixed(1)} % of their median, and the per-pair ratios over ${ratio(paired.min)}–${ratio(paired.max)}: ` +
      `differences smaller than that are noise of the machine, not the executor.`,
  );
  if (medianRatio < 1) {
    findings.push(
      `A ratio below 1 is not the executor being faster: it runs the same commands on the same bytes plus its storage work. ` +
        `It is the size of the machine's drift between two runs of the same encode, which bounds what this run can resolve.`,
    );
  }
  const busiest = Math.max(...pairs.flatMap((p) => [p.executor.othersCpu, p.byHand.othersCpu]));
  const busy = busiest > OTHERS_CPU_LIMIT;
  // Pairs that disagree by more than the whole tolerance cannot tell 1.00 from 1.10.
  const scattered = paired.max - paired.min > 2 * (TARGET_RATIO - 1);
  const caveats = [
    ...(busy ? [`other processes took up to ${percent(busiest)} of the CPU during a run`] : []),
    ...(scattered ? [`per-pair ratios ${ratio(paired.min)}–${ratio(paired.max)}`] : []),
  ];
  if (busy) {
    findings.push(
      `Other processes used up to ${percent(busiest)} of the machine's CPU during a run (the column above), so both variants competed for it ` +
        `and their times are longer and noisier than on an idle machine.`,
    );
  }
  if (medianRatio > TARGET_RATIO) {
    findings.push(`**Target missed**: executor ÷ by hand is ${ratio(medianRatio)}, above ${TARGET_RATIO.toFixed(2)}. The breakdown above says where the extra time went.`);
  }
  if (!commandsMatch) findings.push(`**The commands differ** (${check.difference}), so the two sides did not do the same work and the ratio compares unlike runs.`);

  return {
    id: mediaTranscodeBenchmark.id,
    title: mediaTranscodeBenchmark.title,
    method: [
      `A ${CLIP.seconds} s ${CLIP.width}×${CLIP.height} ${CLIP.fps} fps H.264 clip with a stereo AAC tone (${mebibytes(clipBytes)}) is made with \`generateTestVideo\`. ` +
        `Then, ${pairs.length} times, alternating which goes first: (a) \`FfmpegTranscodeExecutor.run\` in-process on a filesystem blob store in a temp folder, ` +
        `default ladder (${outputs.renditions.join(', ')}), HLS on, \`threads\` ${THREADS}; (b) the same ffprobe, ladder encode and ${outputs.renditions.length} HLS remuxes ` +
        `spawned directly, with argument lists from the same \`@longhaul/media\` builders, reading the clip in place and storing nothing.`,
      `Wall time is measured around \`run\` (a) and around the three stages (b). The executor's store is wrapped to time its blob calls ` +
        `(copy-in: \`getToFile\`; publish: \`putFile\`, \`list\`, \`delete\`; concurrent uploads counted once). Outputs are deleted after each run, untimed. ` +
        `The CPU other processes used during each run is the machine's busy time (\`/proc/stat\`) less this process's and its children's (\`/proc/self/stat\`); ` +
        `above ${percent(OTHERS_CPU_LIMIT)} the verdict is flagged unreliable.`,
      `Before timing, both sides run once on a ${CHECK_SECONDS} s clip of the same size, rate and audio with recording stand-ins for ffmpeg and ffprobe, ` +
        `and their argument lists are compared with paths replaced by placeholders: ` +
        (commandsMatch ? `**identical** (${check.count} commands: ffprobe, the ladder encode, ${check.count - 2} remuxes).` : `**different**: ${check.difference}.`),
    ],
    tables: [
      {
        caption: 'Per run, median (min–max); the target is on wall time',
        table: {
          columns: ['', 'wall time', 'CPU time (this process + children)'],
          rows: [
            ['(a) executor', s(executor), s(executorCpu)],
            ['(b) by hand', s(byHand), s(byHandCpu)],
            ['executor ÷ by hand, median ÷ median', ratio(medianRatio), ratio(cpuRatio)],
            ['executor ÷ by hand, per pair', formatSummary(paired, ratio), formatSummary(pairedCpu, ratio)],
          ],
        },
      },
      {
        caption: 'Where the time goes, median (min–max)',
        table: {
          columns: ['part', 'time'],
          rows: [
            ['(a) copy the source out of the store', s(fetch)],
            ['(a) store the outputs', s(publish)],
            ['(a) everything else: probe, encode, remux, scratch folder', s(rest)],
            ['(b) ffprobe', formatSummary(summarize(pairs.map((p) => p.byHand.probeMs)), seconds)],
            ['(b) ladder encode', formatSummary(summarize(pairs.map((p) => p.byHand.encodeMs)), seconds)],
            ['(b) HLS remuxes', formatSummary(summarize(pairs.map((p) => p.byHand.remuxMs)), seconds)],
          ],
        },
      },
      {
        caption: 'Each repetition',
        table: {
          columns: ['rep', 'order', '(a) executor', '(b) by hand', 'ratio', 'CPU used by other processes, (a) / (b)'],
          rows: pairs.map((p, i) => [
            String(i + 1),
            p.order,
            seconds(p.executor.ms),
            seconds(p.byHand.ms),
            ratio(p.executor.ms / p.byHand.ms),
            `${percent(p.executor.othersCpu)} / ${percent(p.byHand.othersCpu)}`,
          ]),
        },
      },
    ],
    targets: [
      {
        name: 'transcode: executor ÷ by hand (median ÷ median)',
        target: `≤ ${TARGET_RATIO.toFixed(2)}`,
        measured: ratio(medianRatio),
        met: commandsMatch ? medianRatio <= TARGET_RATIO : null,
        ...(caveats.length > 0 ? { caveat: caveats.join('; ') } : {}),
      },
    ],
    findings,
  };
}

