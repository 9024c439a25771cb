import type { BenchmarkSuite } from './benchmark';
import { mediaTranscodeBenchmark } from './media/media-transcode.bench';
import { uploadMemoryBenchmark } from './media/upload-memory.bench';

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
];
