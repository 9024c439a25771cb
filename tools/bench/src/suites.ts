import type { BenchmarkSuite } from './benchmark';
import { mediaTranscodeBenchmark } from './media/media-transcode.bench';
import { uploadMemoryBenchmark } from './media/upload-memory.bench';
import { peerChainBenchmark } from './peers/peer-chain.bench';
import { peerEnqueueBenchmark } from './peers/peer-enqueue.bench';
import { endToEndBenchmark } from './throughput/end-to-end.bench';
import { insertCeilingBenchmark } from './throughput/insert-ceiling.bench';
import { relayLagBenchmark } from './throughput/relay-lag.bench';
import { submitBenchmark } from './throughput/submit.bench';

/**
 * Every suite `npm run bench` knows, in the order it runs them. A new benchmark is a
 * `*.bench.ts` module added to a suite here; a new suite gets its own report file.
 */
export const SUITES: BenchmarkSuite[] = [
  {
    name: 'media',
    title: 'Media benchmarks',
    reportPath: 'docs/benchmarks/media.md',
    // The transcode comparison first: it needs no stack, while the upload may wait for the busy file.
    benchmarks: [mediaTranscodeBenchmark, uploadMemoryBenchmark],
  },
  {
    name: 'throughput',
    title: 'Throughput benchmarks',
    reportPath: 'docs/benchmarks/throughput.md',
    // The peers last: their ratios read the Longhaul figures the benchmarks before them leave.
    // The ceiling before submit, whose ratios read it; submit early, as later ones read its figures.
    benchmarks: [insertCeilingBenchmark, submitBenchmark, relayLagBenchmark, endToEndBenchmark, peerEnqueueBenchmark, peerChainBenchmark],
  },
];
